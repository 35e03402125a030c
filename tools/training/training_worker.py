"""Self-play games with labelled positions, run under MicroPython's unix port by tools/training/training_data.py.

The host prepends the settings as globals:

    GAMES = [(seed, opening position text, random plies), ...]
    EXACT_EMPTIES = 20      # from here down every position is solved exactly (viper solver)
    SEARCH_NODES = 20000    # the midgame search's node budget for every other position
    MAX_DEPTH = 14          # ... and its deepest iteration
    EPSILON = 8             # percent of the moves after the opening played at random (for variety)
    SOLVER_TABLE_BITS = 16
    ANTI = False            # Anti-Othello: fewer discs win (the search, the solver and the result say so)
    SIZE = 8                # 6: 6x6 games, searched inside the 8x8 bit board as the player does (player.engine)

Each game starts from its opening, plays its random plies, then the player
itself: every position is searched (the player's own midgame search, the
viper loop of player/search_viper.py with the shipped evaluation, or the
exact viper solver from EXACT_EMPTIES down; a 6x6 board inside the 8x8 one,
othello.geometry.Embedding, with player/search_viper6.py) and that search's best move is
played, except for EPSILON percent of random moves before EXACT_EMPTIES
(after it the game is played out perfectly, so its end is the exact value
of its first solved position). When the game is over, every position with a
legal move is printed as one line, `pos <player hex> <opponent hex>
<empties> <kind> <score> <result>`: kind `exact` (score in discs, WOF) or
`search` (score in 1/16 disc, evaluation units), and the game's final disc
difference (WOF), both from the side to move's view. `game <index>
<positions> <search ms> <solve ms>` closes each game, so the host can count
progress as it goes and tell where the time went.
"""

import sys

from othello.board import Board
from othello.compat import ticks_diff, ticks_ms
from othello.geometry import EMBEDDED_SIZE, Embedding
from othello.scoring import disc_difference
from othello.variant import Variant
from othello.kernels import make_kernel
from player.endgame_viper import ViperSolver
from player.engine import Random
from player.evaluation import PatternEvaluator
from player.search import Searcher, TranspositionTable

SEARCH_TABLE_BITS = 16  # the host's heap holds a big table: deeper searches for the same nodes
SEARCH_MODULE = "player.search_viper" if SIZE == EMBEDDED_SIZE else "player.search_viper6"  # the patterns its leaves read


def play(game_index, seed, opening, random_plies, searcher, solver, embedding):
    rng = Random(seed)
    board = Board.from_position(opening, Variant(size=SIZE, anti=ANTI))
    for _ in range(random_plies):
        moves = board.legal_squares()
        if not moves:
            break
        board.play(moves[rng.below(len(moves))])
    positions = []  # (player, opponent, empties, kind, score, mover is the first player)
    spent = [0, 0]  # ms searching, ms solving
    first = board.turn
    while not board.is_game_over():
        moves = board.legal_squares()
        if not moves:
            board.pass_turn()
            continue
        player, opponent = board.player_discs(), board.opponent_discs()
        empties = board.empties()
        started = ticks_ms()
        if embedding is not None:
            root = embedding.mask(player), embedding.mask(opponent)
        else:
            root = player, opponent
        if empties <= EXACT_EMPTIES:
            score, square = solver.solve(root[0], root[1], ANTI)
            kind = "exact"
        else:
            searcher.set_root(root[0], root[1])
            searcher.start(SEARCH_NODES)
            searcher.iterate(MAX_DEPTH)
            score, square = searcher.best_score, searcher.best_square
            kind = "search"
        if embedding is not None:
            square = embedding.board_square(square)
        if kind == "search" and rng.below(100) < EPSILON:
            square = moves[rng.below(len(moves))]
        spent[kind == "exact"] += ticks_diff(ticks_ms(), started)
        positions.append((player, opponent, empties, kind, score, board.turn == first))
        board.play(square)
    result = disc_difference(board.result(), first)
    for player, opponent, empties, kind, score, is_first in positions:
        print("pos %x %x %d %s %d %d" % (player, opponent, empties, kind, score, result if is_first else -result))
    print("game %d %d %d %d" % (game_index, len(positions), spent[0], spent[1]))


def main():
    board = Board(Variant(size=SIZE, anti=ANTI))
    embedding = Embedding(SIZE) if SIZE < EMBEDDED_SIZE else None
    board_geometry = board.geometry if embedding is None else embedding.geometry
    searcher = Searcher(make_kernel(board_geometry, 64), TranspositionTable(SEARCH_TABLE_BITS), ANTI)
    searcher.evaluator = PatternEvaluator(SIZE, ANTI, embedding=embedding)
    __import__(SEARCH_MODULE)
    searcher.fast = sys.modules[SEARCH_MODULE].ViperMidgame(searcher.kernel, searcher.table, searcher.rank,
                                                            searcher.keys)
    solver = ViperSolver(board_geometry, max(EXACT_EMPTIES, 1), SOLVER_TABLE_BITS)
    for index, (seed, opening, random_plies) in enumerate(GAMES):
        play(index, seed, opening, random_plies, searcher, solver, embedding)
    sys.stdout.write("done\n")


main()
