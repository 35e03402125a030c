"""Puzzle candidates from self-play games, run under MicroPython's unix port by tools/training/build_puzzles.py.

The host prepends the settings as globals:
    JOBS = [(game seed, [difficulty index, ...]), ...]   the games, and the difficulties still wanted
    EMPTIES_TAKEN = ((6, 8), ...)   for each difficulty, the empty squares a puzzle may have
    MOST_MOVES = (15, 15, 8)        for each difficulty, the most legal moves of a puzzle
    SELF_PLAY_LEVELS = (4, 5, 6, 7)
    MARGIN = 4                      discs: every move but the answers does at least this much worse
    LANDSLIDE = 20                  discs: the result is not decided whatever is played by more than this
    SOLVER_EMPTIES = 16             the most empties of a puzzle (the solver's stacks)
    SOLVER_TABLE_BITS = 18

Each game is played by two levels of the computer player chosen with the
seed; their node budgets end every search (the time limit is never
reached), so a seed gives the same game on every machine. For each
difficulty wanted, its empty-square counts are tried in an order the seed
shuffles, and the first position that makes a puzzle is printed:
    puzzle <seed> <difficulty> <black hex> <white hex> <turn> <unique 0|1> <square>:<score>,... <square>,...
every legal move's exact score (WOF discs, the mover's side) from the viper
solver, then the solution line: the first answer, then the solver's best
move in each position after it to the game's end (-1 a pass). `game <seed>`
closes each game.
"""

from othello.board import PASS
from othello.game import Game
from player import think
from player.engine import MAX_TIME_MS, Random


def self_play(seed):
    """{empties: board} of one self-play game, for each position where the side to move has a move."""
    rng = Random(seed)
    levels = (SELF_PLAY_LEVELS[rng.below(len(SELF_PLAY_LEVELS))], SELF_PLAY_LEVELS[rng.below(len(SELF_PLAY_LEVELS))])
    game = Game()
    positions = {}
    ply = 0
    while not game.is_over():
        board = game.board
        if board.must_pass():
            game.pass_turn()
            continue
        if board.empties() not in positions:
            positions[board.empties()] = board.copy()
        decision = think(board.copy(), levels[board.turn], time_limit_ms=MAX_TIME_MS, rng_seed=seed * 1000 + ply)
        game.play(decision.square)
        ply += 1
    return positions


def exact_score(solver, board):
    """The exact score for the side to move on `board`, solved from an empty table, so each score is
    solved on its own (before f2812ca folded the table's hash, another position's entries misled the
    viper solver about 1 solve in 1,000 here)."""
    solver.clear_table()
    return solver.solve(board.player_discs(), board.opponent_discs())[0]


def puzzle_scores(solver, board, most_moves):
    """[(square, exact score of playing it)] when `board` makes a puzzle, else None."""
    squares = board.legal_squares()
    if not 2 <= len(squares) <= most_moves:
        return None
    best = exact_score(solver, board)
    if best < -LANDSLIDE:
        return None  # lost by a landslide whatever is played: known before every move is solved
    scores = []
    for square in squares:
        after = board.copy()
        after.play(square)
        scores.append((square, -exact_score(solver, after)))
    answers = sum(1 for _, score in scores if score == best)
    if not (answers == 1 or (answers == 2 and len(squares) >= 4)):
        return None
    worst = min(score for _, score in scores)
    best_wrong = max(score for _, score in scores if score < best)
    if best - best_wrong < MARGIN or worst > LANDSLIDE or best < -LANDSLIDE:
        return None
    return scores


def solution_line(solver, board, first):
    """[square or PASS]: `first`, then best play by both sides to the end of the game."""
    line = [first]
    board = board.copy()
    board.play(first)
    while not board.is_game_over():
        if board.must_pass():
            square = PASS
            board.pass_turn()
        else:
            solver.clear_table()
            square = solver.solve(board.player_discs(), board.opponent_discs())[1]
            board.play(square)
        line.append(square)
    return line


def candidates(seed, wanted):
    positions = self_play(seed)
    # Imported after the game: the player lets the solver's module go when it swaps in the midgame search
    # (othello.compat.release_module empties its namespace), and a solver kept from before would find its
    # module's functions gone.
    from player.endgame_viper import ViperSolver

    solver = ViperSolver(Game().board.geometry, SOLVER_EMPTIES, SOLVER_TABLE_BITS)
    for difficulty in wanted:
        rng = Random(seed * 7 + 1 + 1000003 * difficulty)  # a difficulty's order whatever else is wanted
        fewest, most = EMPTIES_TAKEN[difficulty]
        order = list(range(fewest, most + 1))
        for at in range(len(order) - 1, 0, -1):  # Fisher-Yates, with the seed's numbers
            other = rng.below(at + 1)
            order[at], order[other] = order[other], order[at]
        for empties in order:
            board = positions.get(empties)
            scores = None if board is None else puzzle_scores(solver, board, MOST_MOVES[difficulty])
            if scores is not None:
                best = max(score for _, score in scores)
                answers = [square for square, score in scores if score == best]
                line = solution_line(solver, board, answers[0])
                print("puzzle %d %d %x %x %d %d %s %s" % (
                    seed, difficulty, board.black, board.white, board.turn, len(answers) == 1,
                    ",".join("%d:%d" % move for move in scores), ",".join("%d" % square for square in line)))
                break
    print("game %d" % seed)


def main():
    for seed, wanted in JOBS:
        candidates(seed, wanted)


main()
