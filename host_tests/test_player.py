"""The computer player (firmware/player/): solver, search limits, levels, hints, book, evaluation, kernel additions."""

import random

import pytest

from othello.board import PASS, Board
from othello.compat import popcount
from othello.geometry import Embedding, geometry
from othello.kernel import Kernel
from othello.variant import START_EMPTY, WHITE, Variant
from engine_helpers import image_mask
from training.training_boards import symmetry_maps
from player import LEVELS, Decision, hint, solve, think
from player import book as book_module
from player.evaluation import POSITIONAL_VALUES, SCALARS, PatternEvaluator, SquareEvaluator, weights_file
from player import search
from player.search import INFINITY, SearchStopped, Searcher, TranspositionTable, square_ranks


# ----- references -------------------------------------------------------------


def brute_force(board):
    """Exhaustive minimax straight on the geometry's move and flip functions (no pruning; a memo of
    positions only saves repeats): the WOF disc difference for the side to move, negated in Anti-Othello."""
    g = board.geometry
    anti = board.variant.anti
    memo = {}

    def value(player, opponent):
        key = (player, opponent)
        if key in memo:
            return memo[key]
        moves = g.moves(player, opponent)
        if not moves:
            if g.moves(opponent, player):
                result = -value(opponent, player)
            else:
                diff = popcount(player) - popcount(opponent)
                empties = popcount(g.playable & ~(player | opponent))
                diff = diff + empties if diff > 0 else diff - empties if diff < 0 else 0
                result = -diff if anti else diff
        else:
            result = None
            while moves:
                low = moves & -moves
                moves ^= low
                flipped = g.flips(player, opponent, low.bit_length() - 1)
                score = -value(opponent ^ flipped, player | flipped | low)
                if result is None or score > result:
                    result = score
        memo[key] = result
        return result

    return value(board.player_discs(), board.opponent_discs())


def random_board(rng, empties, variant):
    """A position reached by random play with `empties` empty squares left and the game still on."""
    while True:
        board = Board(variant)
        while board.empties() > empties and not board.is_game_over():
            moves = board.legal_squares()
            if moves:
                board.play(rng.choice(moves))
            else:
                board.pass_turn()
        if board.empties() == empties and not board.is_game_over():
            return board


VARIANTS = (
    Variant(),
    Variant(anti=True),
    Variant(size=6),
    Variant(size=6, anti=True),
    Variant(black_hole=18),
    Variant(first=WHITE, handicap=1),
    Variant(size=10),
)


def midgame_board(seed=3, plies=20, variant=None):
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(plies):
        moves = board.legal_squares()
        if not moves:
            break
        board.play(rng.choice(moves))
    return board


# ----- the solver ------------------------------------------------------------


def test_solver_matches_brute_force_on_random_positions():
    rng = random.Random(2024)
    checked = 0
    for trial in range(140):
        variant = VARIANTS[trial % len(VARIANTS)]
        board = random_board(rng, 1 + trial % 10, variant)
        expected = brute_force(board)
        score, square = solve(board)
        assert score == expected, (board.position(), variant)
        if square == PASS:
            assert not board.legal_moves()
        else:
            after = board.copy()
            after.play(square)
            assert -brute_force(after) == expected, "the move does not keep the score"
        checked += 1
    assert checked == 140


def test_solver_windows_give_bounds_on_the_right_side():
    rng = random.Random(7)
    for _ in range(20):
        board = random_board(rng, 8, Variant())
        exact = brute_force(board)
        for alpha, beta in ((-1, 1), (exact - 3, exact - 1), (exact + 1, exact + 4), (exact - 2, exact + 2)):
            score, _ = solve(board, alpha, beta)
            if score <= alpha:
                assert exact <= score
            elif score >= beta:
                assert exact >= score
            else:
                assert score == exact


def test_anti_othello_is_solved_for_fewer_discs():
    # Black to move, one empty square a8; playing it flips a7 and gives Black more discs.
    text = "XXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOOXXXXXXX-OOOOOOO X"
    board = Board.from_position(text, Variant(anti=True))
    assert board.legal_squares() == [56]
    score, square = solve(board)
    normal, _ = solve(Board.from_position(text))
    assert square == 56
    assert score == -normal == brute_force(board)
    decision = think(board, 8)
    assert decision.exact and decision.score == score


def test_solve_reports_pass_and_game_over():
    # White has no move, Black has: White must pass.
    board = Board.from_position("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO--OOX O")
    assert board.must_pass()
    score, square = solve(board)
    assert square == PASS and score == brute_force(board)
    over = Board.from_position("X" * 64 + " O")
    assert solve(over) == (-64, None)


def test_solver_stops_at_its_node_limit():
    board = random_board(random.Random(5), 14, Variant())
    with pytest.raises(SearchStopped):
        solve(board, node_limit=500)


# ----- the search and its limits ------------------------------------------------


class FakeClock:
    """A tick counter that advances one millisecond each time it is read."""

    def __init__(self):
        self.ticks = 0

    def __call__(self):
        self.ticks += 1
        return self.ticks


def test_node_limit_is_respected_and_repeatable():
    board = midgame_board()
    first = think(board, 6, node_limit=700, time_limit_ms=10**7, rng_seed=1)
    again = think(board, 6, node_limit=700, time_limit_ms=10**7, rng_seed=1)
    assert first.nodes <= 700
    assert (first.square, first.score, first.depth, first.nodes) == (again.square, again.score, again.depth, again.nodes)
    assert board.is_legal(first.square)


def test_deadline_is_respected_on_a_fake_clock():
    board = midgame_board()
    clock = FakeClock()
    decision = think(board, 8, now=clock, time_limit_ms=40, node_limit=10**8)
    # The clock is read every 64 nodes at most; once past the deadline the search stops at once.
    assert decision.elapsed_ms <= 40 + 2
    assert board.is_legal(decision.square)


def test_a_big_board_looks_at_the_clock_at_every_node():
    """A 10x10 node is a multi-word big integer's work: 64 of them took 1.2 s on the Pico (52 a second), so
    the search reads the clock at each one and a move keeps its time there too."""
    board = Board(Variant(size=10))
    clock = FakeClock()  # a millisecond a read: past the deadline after 40 reads, whatever the interval
    decision = think(board, 8, now=clock, time_limit_ms=40, node_limit=10**8)
    assert decision.elapsed_ms <= 40 + 2 and 0 < decision.nodes <= 40
    assert board.is_legal(decision.square)
    on_8x8 = think(midgame_board(), 8, now=FakeClock(), time_limit_ms=40, node_limit=10**8)
    assert on_8x8.nodes > 64  # there the clock is read every 64 nodes, where the viper search polls


def test_a_slow_search_looks_at_the_clock_more_often(monkeypatch):
    """This search on the Pico runs about 900 nodes/s (where the viper search could not load): 64 nodes
    between looks at the clock would be 70 ms, more than a move may overrun its level's time (50 ms)."""
    class NodeClock:  # the time a node takes on the Pico's plain search, on a clock of the moves played
        ms = 0.0

        def __call__(self):
            return int(self.ms)

    clock = NodeClock()
    play = Kernel.play

    def slow_play(kernel, ply, square):
        clock.ms += 1.1
        return play(kernel, ply, square)

    monkeypatch.setattr(Kernel, "play", slow_play)
    worst = 0
    for seed in range(3, 13):
        for time_ms in (100, 200, 400):
            decision = think(midgame_board(seed=seed), 8, now=clock, time_limit_ms=time_ms, node_limit=10**8)
            worst = max(worst, decision.elapsed_ms - time_ms)
    assert worst <= 2 * search._CHECK_SLICE_MS + 2, worst  # 52 ms when the search looked every 64 nodes whatever their time


def test_deadline_is_respected_on_the_real_clock():
    board = midgame_board(seed=11)
    decision = think(board, 8, time_limit_ms=150, node_limit=10**8)
    assert decision.elapsed_ms <= 150 + 100  # the margin only covers one check interval on a busy machine
    assert board.is_legal(decision.square)


def test_should_stop_is_polled_and_stops_the_search():
    board = midgame_board()
    calls = []

    def should_stop():
        calls.append(1)
        return len(calls) >= 5

    decision = think(board, 8, should_stop=should_stop, time_limit_ms=10**7, node_limit=10**8)
    assert len(calls) == 5
    assert decision.nodes <= 5 * 64 + 64
    assert board.is_legal(decision.square)


def test_search_stops_during_the_first_iteration_with_a_legal_move():
    board = midgame_board()
    decision = think(board, 8, node_limit=3, time_limit_ms=10**7)
    assert board.is_legal(decision.square)


def test_iterative_deepening_finds_the_exact_score_near_the_end():
    board = random_board(random.Random(9), 7, Variant())
    searcher = Searcher(Kernel(board.geometry), TranspositionTable(10))
    searcher.evaluator = PatternEvaluator(8)
    searcher.set_root(board.player_discs(), board.opponent_discs())
    searcher.start()
    depth = searcher.iterate(30)
    assert depth == 8 and searcher.exact_result
    assert searcher.best_score == brute_force(board) * 16


def test_the_engine_kernel_holds_every_line_the_levels_reach():
    from player.engine import MAX_PLY
    from player.levels import REVIEW_EXACT

    # a solve of n empties plays n moves and at most n + 1 passes (the review solves from REVIEW_EXACT)
    assert 2 * max([REVIEW_EXACT] + [level.exact for level in LEVELS]) + 1 <= MAX_PLY
    # a midgame line of depth d may need 2d plies: the search stops deepening at half the kernel's plies
    board = Board()
    searcher = Searcher(Kernel(board.geometry, 6), TranspositionTable(8))
    searcher.evaluator = PatternEvaluator(8)
    searcher.set_root(board.player_discs(), board.opponent_discs())
    searcher.start(node_limit=100000)
    assert searcher.iterate(40) == 3


def test_probcut_answers_a_bound_where_a_shallow_search_lies_far_outside_the_window(monkeypatch):
    # Multi-ProbCut: a node 4 or more plies deep first searches its own position shallower; 20 discs outside
    # the window, that search's null window settles the node at the window's edge (fail-hard), with fewer nodes
    board = midgame_board()

    def root_score(alpha, beta, probcut=True):
        monkeypatch.setattr(search, "_PROBCUT_DEPTH", 4 if probcut else 99)
        searcher = Searcher(Kernel(board.geometry), TranspositionTable(12))
        searcher.evaluator = PatternEvaluator(8)
        searcher.set_root(board.player_discs(), board.opponent_discs())
        searcher.start()
        return searcher.search_root(6, alpha, beta), searcher.nodes

    exact, _ = root_score(-INFINITY, INFINITY, probcut=False)
    far = 20 * 16
    for alpha, beta in ((exact - far - 1, exact - far), (exact + far, exact + far + 1)):
        plain, plain_nodes = root_score(alpha, beta, probcut=False)
        cut, cut_nodes = root_score(alpha, beta)
        assert cut in (alpha, beta) and cut_nodes * 4 < plain_nodes
        assert (plain >= beta) == (cut >= beta)  # a bound on the same side of the window


def test_search_finds_a_forced_corner():
    # a1 is a corner that wins every disc on the board's edge and diagonal.
    board = Board.from_position("-OOOOOOXOO------O-O-----O--O----O---O---O----O--O-----O-X------X X")
    assert 0 in board.legal_squares()
    assert think(board, 6, rng_seed=0).square == 0


# ----- the API ---------------------------------------------------------------


def test_levels_are_described_and_budgets_grow():
    assert len(LEVELS) >= 8
    for lower, higher in zip(LEVELS, LEVELS[1:]):
        assert higher.time_ms >= lower.time_ms
        assert higher.nodes >= lower.nodes
        assert higher.exact >= lower.exact
        assert higher.noise <= lower.noise
    for number, level in enumerate(LEVELS, 1):
        assert level.number == number and level.name and level.describe().startswith("L%d " % number)


def test_on_6x6_the_levels_below_the_top_solve_later_and_err_more():
    """6x6's levels 5-7 would play nearly like level 8 with the table's settings (docs/PLAYER.md's ladders):
    there they solve later and err more, the engine plays them so in every 6x6 game, and no other board
    changes."""
    from player.levels import on_board

    fields = ("number", "name", "time_ms", "nodes", "max_depth", "solve_nodes", "style", "book")
    for variant in (Variant(), Variant(anti=True), Variant(size=10), Variant(start=START_EMPTY)):
        assert all(on_board(level, variant) is level for level in LEVELS)
    for variant in (Variant(size=6), Variant(size=6, anti=True)):
        levels = [on_board(level, variant) for level in LEVELS]
        # the top level plays without error on every board, and solves from 14 empties on 6x6
        assert (levels[-1].exact, levels[-1].noise) == (14, 0.0) and LEVELS[-1].exact == 16
        for table, own in zip(LEVELS, levels):
            assert [getattr(own, name) for name in fields] == [getattr(table, name) for name in fields]
            again = on_board(own, variant)
            assert (again.exact, again.noise) == (own.exact, own.noise)
        for table, own in zip(LEVELS[4:7], levels[4:7]):
            assert own.exact < table.exact and own.noise > table.noise
        # still a ladder from level 5: each solves from more empties and errs less than the one below
        for lower, higher in zip(levels[4:], levels[5:]):
            assert higher.exact > lower.exact and higher.noise < lower.noise
    # Anti-Othello's level 2 solves earlier and errs less there than the table's
    table, own = LEVELS[1], on_board(LEVELS[1], Variant(size=6, anti=True))
    assert own.exact > table.exact and own.noise < table.noise
    # A 6x6 position with 9 empty squares: level 6 solves it with the table's settings (from 12), not on 6x6.
    board = Board(Variant(size=6))
    rng = random.Random(3)
    while board.empties() > 9:
        board.play(rng.choice(board.legal_squares())) if board.legal_moves() else board.pass_turn()
    assert len(board.legal_squares()) > 1
    assert on_board(LEVELS[5], board.variant).exact < 9 < LEVELS[5].exact
    assert think(board, 6, rng_seed=1).solver_nodes == 0
    assert think(board, 8, rng_seed=1).solver_nodes > 0


def test_the_midgame_budget_grows_where_the_pico_searches_faster():
    """Early moves cost the Pico fewer cycles a node than the late midgame's: their budgets are bigger, so
    every move's budget ends it at about the same share of the level's time."""
    from player.levels import SOLVE_SHARE

    for level in LEVELS[4:]:
        budgets = [level.midgame_nodes(empties) for empties in range(level.exact + 1, 61)]
        assert budgets == sorted(budgets) and budgets[0] == level.nodes
        assert budgets[-1] >= level.nodes * 11 // 10  # the opening's nodes come about 16% faster
        # after a solve that did not finish the search gets the rest of the budget
        assert level.midgame_nodes(level.exact) == level.nodes * (100 - SOLVE_SHARE) // 100
        # the rates are the 8x8 board's: 6x6 and 10x10 searches keep the slowest one's budget
        assert level.midgame_nodes(32, size=6) == level.midgame_nodes(96, size=10) == level.nodes
    board = midgame_board(plies=12)
    empties = 60 - 12
    decision = think(board, 6, time_limit_ms=10**7, rng_seed=1)
    assert decision.nodes == LEVELS[5].midgame_nodes(empties) > LEVELS[5].nodes


def test_think_rejects_bad_levels_and_finished_games():
    board = Board()
    for bad in (0, len(LEVELS) + 1, "3", None):
        with pytest.raises(ValueError):
            think(board, bad)
    with pytest.raises(ValueError):
        think(Board.from_position("X" * 64 + " O"), 3)


def test_levels_choose_differently():
    """Across some midgame positions the weakest and the strongest levels disagree, and the weak ones vary by seed."""
    boards = [midgame_board(seed, 16) for seed in range(8)]
    weak = [think(b, 1, rng_seed=4).square for b in boards]
    strong = [think(b, len(LEVELS), rng_seed=4).square for b in boards]
    assert weak != strong
    varied = {think(boards[0], 2, rng_seed=seed).square for seed in range(12)}
    assert len(varied) > 1


def test_hints_are_legal_on_every_variant():
    rng = random.Random(12)
    for variant in VARIANTS:
        for plies in (0, 9, 25):
            board = Board(variant)
            for _ in range(plies):
                if board.is_game_over():
                    break
                moves = board.legal_squares()
                if moves:
                    board.play(rng.choice(moves))
                else:
                    board.pass_turn()
            if board.is_game_over():
                continue
            decision = hint(board, time_limit_ms=1000)  # a 1 s hint's budget: 9,500 nodes
            assert isinstance(decision, Decision)
            if board.legal_moves():
                assert board.is_legal(decision.square), variant
            else:
                assert decision.square == PASS


def test_pass_decision():
    board = Board.from_position("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO--OOX O")
    for level in (1, 4, 8):
        assert think(board, level).square == PASS


def test_reversi_placement_plies():
    board = Board(Variant(start=START_EMPTY))
    for _ in range(4):
        assert board.in_placement_phase()
        decision = think(board, 5, rng_seed=2)
        assert board.is_legal(decision.square)
        board.play(decision.square)
    assert not board.in_placement_phase()
    assert board.is_legal(think(board, 5).square)


def test_every_level_finishes_a_small_game():
    for level in range(1, len(LEVELS) + 1):
        board = Board(Variant(size=6))
        while not board.is_game_over():
            decision = think(board, level, rng_seed=level, node_limit=1500)
            if decision.square == PASS:
                board.pass_turn()
            else:
                board.play(decision.square)
        assert board.result() is not None


def test_describe():
    assert Decision(44, 4.2, False, 6, 100, 12, 3, 8).describe() == "e6 +4"
    assert Decision(44, -0.4, False, 6, 100, 12, 3, 8).describe() == "e6 0"
    assert Decision(18, 6, True, 12, 100, 12, 3, 8).describe() == "c3 win by 6 (exact)"
    assert Decision(18, -2, True, 12, 100, 12, 3, 8).describe() == "c3 loss by 2 (exact)"
    assert Decision(18, 0, True, 12, 100, 12, 3, 8).describe() == "c3 draw (exact)"
    assert Decision(PASS, -3.0, False, 2, 5, 1, 3, 8).describe() == "pass -3"
    assert Decision(37, 0.0, False, 0, 0, 1, 3, 8, True).describe() == "f5 0 book"


def test_strong_level_beats_the_weakest_on_6x6():
    wins = 0
    for game in range(2):
        board = Board(Variant(size=6))
        strong_colour = game % 2
        while not board.is_game_over():
            level = len(LEVELS) - 2 if board.turn == strong_colour else 1
            decision = think(board, level, rng_seed=game)
            board.pass_turn() if decision.square == PASS else board.play(decision.square)
        result = board.result()
        wins += result.winner == strong_colour
    assert wins == 2


def test_anti_level_plays_to_lose_discs():
    """In Anti-Othello a strong level ends with fewer discs than the weakest level in most games."""
    wins = 0
    for game in range(2):
        board = Board(Variant(size=6, anti=True))
        strong_colour = game % 2
        while not board.is_game_over():
            level = len(LEVELS) - 2 if board.turn == strong_colour else 1
            decision = think(board, level, rng_seed=game)
            board.pass_turn() if decision.square == PASS else board.play(decision.square)
        wins += board.result().winner == strong_colour
    assert wins == 2


# ----- book and evaluation files -------------------------------------------------


def test_book_moves_are_legal_and_symmetric():
    board = Board()
    kernel = Kernel(board.geometry)
    found = book_module.moves_for(board, kernel)
    assert found, "the 8x8 book has the start position"
    assert {square for square, _ in found} <= set(board.legal_squares())
    # The four first moves are one move turned round: one book entry serves them all.
    assert sorted(square for square, _ in found) == sorted(board.legal_squares())
    board.play("f5")
    replies = book_module.moves_for(board, kernel)
    assert replies and all(board.is_legal(square) for square, _ in replies)


def test_book_symmetries_are_a_group_of_8_distinct_maps():
    tables = symmetry_maps(8)
    assert len({bytes(t) for t in tables}) == 8
    for table in tables:
        assert sorted(table) == list(range(64))


@pytest.mark.parametrize("size", [6, 8, 10])
def test_book_symmetries_undo_with_their_inverses(size):
    for symmetry in range(8):
        back = book_module._INVERSES[symmetry]
        for square in range(size * size):
            assert book_module.image_square(book_module.image_square(square, symmetry, size), back, size) == square


@pytest.mark.parametrize("size", [6, 8, 10])
def test_book_canonical_image_is_the_least_of_the_eight_as_integers(size):
    rng = random.Random(size)
    tables = symmetry_maps(size)
    for _ in range(300):
        squares = rng.sample(range(size * size), rng.randrange(size * size + 1))
        cut = rng.randrange(len(squares) + 1)
        player = sum(1 << square for square in squares[:cut])
        opponent = sum(1 << square for square in squares[cut:])
        images = [(image_mask(player, table), image_mask(opponent, table)) for table in tables]
        least = min(images)
        assert book_module.canonical(player, opponent, size) == least + (images.index(least),)
    # the start position is its own image under four symmetries: the first of them is named
    start = Board(Variant(size=size))
    images = [(image_mask(start.player_discs(), table), image_mask(start.opponent_discs(), table)) for table in tables]
    assert images.count(min(images)) > 1
    assert book_module.canonical(start.player_discs(), start.opponent_discs(), size) == min(images) + (images.index(min(images)),)


def test_book_gives_variety_to_weak_levels():
    board = Board()
    board.play("f5")
    choices = {think(board, 3, rng_seed=seed).square for seed in range(16)}
    assert len(choices) > 1


@pytest.mark.parametrize("size,anti", [(6, False), (8, False), (6, True), (8, True), (10, False), (10, True)])
def test_weight_files_load(size, anti):
    evaluator = PatternEvaluator(size, anti)
    assert evaluator.source.endswith(weights_file(size, anti))
    phases = max(evaluator.phase_of) + 1
    assert len(evaluator.weights) == phases * SCALARS and phases >= 4
    if size < 10:  # Othello and Anti-Othello share the patterns the viper search evaluates (search_viper6 on 6x6)
        assert evaluator.layout == PatternEvaluator(size, not anti).layout and len(evaluator.images) == 14
        assert len(evaluator.table) == (20169 if size == 8 else 11340)
    else:  # the four edges, each read as two halves from its corners: E * (E + 1) // 2 entries, E = 3**4
        assert len(evaluator.images) == 4 and len(evaluator.table) == 3321


def test_weight_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "eval8.bin"
    bad.write_bytes(b"nonsense")
    with pytest.raises(ValueError, match="eval8.bin"):
        PatternEvaluator(8, path=str(bad))
    assert PatternEvaluator(8, path=str(tmp_path / "missing.bin")).source == "defaults"


def test_evaluation_is_the_same_for_mirror_images():
    board = midgame_board(seed=5, plies=24)
    kernel = Kernel(board.geometry)
    evaluator = PatternEvaluator(8)
    scores = set()
    for table in symmetry_maps(8):
        kernel.set_root(image_mask(board.player_discs(), table), image_mask(board.opponent_discs(), table))
        scores.add(evaluator.evaluate(kernel, 0))
    assert len(scores) == 1


def test_evaluation_without_its_buffer_reads_the_file_and_takes_the_buffer_back_when_told():
    """The engine lets the phase buffer go while the solver works (Engine.solver). An evaluation then (a
    forced move in the endgame) reads its entries from the file one by one and takes no buffer; a search's
    use_phase (Engine.midgame_search takes the buffer first) reads the whole phase again: the same scores,
    at every phase."""
    evaluator = PatternEvaluator(8)
    kernel = Kernel(geometry(8))
    boards = [midgame_board(seed=seed, plies=plies) for seed, plies in ((1, 12), (2, 30), (3, 44), (4, 52), (5, 8))]
    scores = []
    for board in boards:
        kernel.set_root(board.player_discs(), board.opponent_discs())
        scores.append(evaluator.evaluate(kernel, 0))
    assert len({evaluator.phase_of[board.empties()] for board in boards}) >= 4
    loads = evaluator.loads
    evaluator.release_tables()
    from_file = []
    for board in boards:
        kernel.set_root(board.player_discs(), board.opponent_discs())
        from_file.append(evaluator.evaluate(kernel, 0))
    assert from_file == scores and evaluator.table is None and evaluator.loads == loads
    evaluator.take_tables()
    again = []
    for board in boards:
        kernel.set_root(board.player_discs(), board.opponent_discs())
        again.append(evaluator.evaluate(kernel, 0))
    assert again == scores and len(evaluator.table) == evaluator.table_bytes == 20169
    assert evaluator.loads > loads


# ----- the kernel methods the player added ---------------------------------------


def group_value(squares, cells):
    """A group of an image's squares (PatternEvaluator.images: most significant first) as a base-3 number."""
    return sum(cells[square] * 3 ** (len(squares) - 1 - place) for place, square in enumerate(squares))


def direct_edge_number(digits):
    """The entry of an edge read as `digits` (0 empty, 1 mover, 2 opponent; 10x10's middle two left out):
    the base-3 values of the two halves, each read from its corner inward, smaller one `low`, larger one `high`."""
    half = len(digits) // 2
    near = sum(digits[i] * 3 ** i for i in range(half))
    far = sum(digits[len(digits) - 1 - i] * 3 ** i for i in range(half))
    low, high = sorted((near, far))
    return high * (high + 1) // 2 + low


@pytest.mark.parametrize("size", [10])
def test_edge_entries_join_mirror_images_and_number_every_pair_once(size):
    """Every filling of the squares an edge reads, on each of the four edges of the edge evaluation's file
    (10x10's; the 6x6 and 8x8 files' patterns are checked against the fit's numbering by test_training):
    an edge and its mirror image get the same entry, and the mirror pairs are numbered one to one onto
    0 .. E * (E + 1) // 2 - 1, the table's size."""
    rng = random.Random(size)
    evaluator = PatternEvaluator(size)
    places = [place for place in range(size) if not (size == 10 and 4 <= place < 6)]  # 10x10: 0-3 and 6-9
    half_values = 3 ** (len(places) // 2)
    count = half_values * (half_values + 1) // 2
    assert count == len(evaluator.table) == 3321
    lines = ([c for c in range(size)], [(size - 1) * size + c for c in range(size)],
             [r * size for r in range(size)], [r * size + size - 1 for r in range(size)])
    assert len(evaluator.images) == 4
    for image, line in zip(evaluator.images, lines):
        _, pairs, fixed, first, second = image
        assert not fixed and set(first) | set(second) == {line[place] for place in places}
        numbered = {}  # filling (a digit per place read) -> its entry
        for filling in range(3 ** len(places)):
            digits = tuple(filling // 3 ** i % 3 for i in range(len(places)))
            cells = bytearray(size * size)
            for place, digit in zip(places, digits):
                cells[line[place]] = digit
            if size == 10:  # the middle squares, which are not read, hold anything
                cells[line[4]], cells[line[5]] = rng.randrange(3), rng.randrange(3)
            high, low = sorted((group_value(first, cells), group_value(second, cells)), reverse=True)
            entry = high * (high + 1) // 2 + low
            assert entry == direct_edge_number(digits), (size, line, digits)
            numbered[digits] = entry
        given = {}  # entry -> the mirror pairs given it, each as its smaller filling
        for digits, entry in numbered.items():
            assert numbered[digits[::-1]] == entry, (size, digits)
            given.setdefault(entry, set()).add(min(digits, digits[::-1]))
        assert sorted(given) == list(range(count)) and all(len(pairs) == 1 for pairs in given.values())


def neighbours_count(player, opponent, n, playable):
    count = 0
    for square in range(n * n):
        if not (playable >> square & 1) or (player | opponent) >> square & 1:
            continue
        row, column = divmod(square, n)
        if any(0 <= row + dr < n and 0 <= column + dc < n and opponent >> ((row + dr) * n + column + dc) & 1
               for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc):
            count += 1
    return count


@pytest.mark.parametrize("size,hole", [(6, None), (8, None), (8, 9), (10, None)])
def test_kernel_evaluation_methods_against_direct_counts(size, hole):
    rng = random.Random(size)
    g = geometry(size, 0 if hole is None else 1 << hole)
    kernel = Kernel(g)
    corners = (0, size - 1, size * (size - 1), size * size - 1)
    x_squares = (size + 1, 2 * size - 2, size * (size - 2) + 1, size * (size - 1) - 2)
    out = [0] * 7
    cells = bytearray(size * size)
    for _ in range(300):
        occupied = (rng.getrandbits(size * size) | rng.getrandbits(size * size)) & g.playable
        split = rng.getrandbits(size * size)
        player, opponent = occupied & split, occupied & ~split
        kernel.set_root(player, opponent)
        assert kernel.potential_mobility(0) == neighbours_count(player, opponent, size, g.playable)
        assert kernel.opponent_potential_mobility(0) == neighbours_count(opponent, player, size, g.playable)
        expected_x = 0
        for corner, x in zip(corners, x_squares):
            if not (occupied >> corner & 1) and g.playable >> corner & 1:
                expected_x += (player >> x & 1) - (opponent >> x & 1)
        assert kernel.x_squares(0) == expected_x
        weights = list(range(size * size))
        assert kernel.square_sum(0, weights) == (sum(s for s in range(size * size) if player >> s & 1)
                                                 - sum(s for s in range(size * size) if opponent >> s & 1))
        kernel.features(0, out)
        assert out[:7] == [kernel.mobility(0), kernel.opponent_mobility(0), kernel.potential_mobility(0),
                           kernel.opponent_potential_mobility(0), kernel.x_squares(0),
                           kernel.discs(0) - kernel.opponent_discs(0), kernel.empties(0)]
        kernel.cells(0, cells)
        assert list(cells) == [1 if player >> s & 1 else 2 if opponent >> s & 1 else 0 for s in range(size * size)]
        assert 0 <= kernel.hash(0) < 1 << 30 and 0 <= kernel.lock(0) < 1 << 30


def test_the_embedding_maps_squares_and_masks_both_ways():
    embedding = Embedding(6, 1 << 8)  # a black hole on c2
    assert embedding.geometry == geometry(8, 0xFF818181818181FF | 1 << 19)
    assert [embedding.board_square(embedding.squares[square]) for square in range(36)] == list(range(36))
    assert embedding.mask(1 | 1 << 35) == 1 << 9 | 1 << 54  # a1 and f6 are b2 and g7 inside 8x8
    assert geometry(8).corner_x == tuple((1 << corner, 1 << x) for corner, x in ((0, 9), (7, 14), (56, 49), (63, 54)))
    assert embedding.geometry.corner_x == tuple((1 << corner, 1 << x) for corner, x in ((9, 18), (14, 21), (49, 42),
                                                                                          (54, 45)))
    for size in (8, 10, 7):
        with pytest.raises(ValueError, match="smaller than 8x8"):
            Embedding(size)


@pytest.mark.parametrize("variant", [Variant(size=6), Variant(size=6, anti=True), Variant(size=6, black_hole=27)],
                         ids=("othello", "anti", "hole"))
def test_a_6x6_board_inside_the_8x8_one_is_evaluated_and_searched_as_itself(variant):
    """The player searches 6x6 inside the 8x8 bit board (player.engine): every feature, both evaluations, the
    move order's ranks and a search's score and move are the 6x6 board's own."""
    rng = random.Random(9)
    anti = variant.anti
    embedding = Embedding(6, variant.blocked_mask())
    own, inside = Kernel(geometry(6, variant.blocked_mask()), 16), Kernel(embedding.geometry, 16)
    own_ranks, inside_ranks = square_ranks(own.geometry), square_ranks(inside.geometry)
    assert [inside_ranks[embedding.squares[square]] for square in range(36)] == list(own_ranks)
    evaluators = ((PatternEvaluator(6, anti), PatternEvaluator(6, anti, embedding=embedding)),
                  (SquareEvaluator(6, POSITIONAL_VALUES, 4, anti), SquareEvaluator(6, POSITIONAL_VALUES, 4, anti, embedding)))
    own_features, inside_features = [0] * 7, [0] * 7
    for trial in range(24):
        board = random_board(rng, rng.randrange(4, 31), variant)
        player, opponent = board.player_discs(), board.opponent_discs()
        own.set_root(player, opponent)
        inside.set_root(embedding.mask(player), embedding.mask(opponent))
        own.features(0, own_features)
        inside.features(0, inside_features)
        assert own_features == inside_features, board.position()
        for plain, embedded in evaluators:
            assert plain.evaluate(own, 0) == embedded.evaluate(inside, 0), board.position()
        if trial % 3 == 0 and board.legal_moves():
            results = []
            for kernel, evaluator, square_of in ((own, evaluators[0][0], int),
                                                 (inside, evaluators[0][1], embedding.board_square)):
                searcher = Searcher(kernel, TranspositionTable(12), anti)
                searcher.evaluator = evaluator
                searcher.set_root(*kernel.position(0))
                searcher.start()
                searcher.iterate(4)
                results.append((square_of(searcher.best_square), searcher.best_score))
            assert results[0] == results[1], board.position()


def test_hash_and_lock_tell_positions_apart():
    rng = random.Random(1)
    kernel = Kernel(geometry(8))
    seen = {}
    for _ in range(20000):
        occupied = rng.getrandbits(64) | rng.getrandbits(64)
        split = rng.getrandbits(64)
        position = (occupied & split, occupied & ~split)
        kernel.set_root(*position)
        key = (kernel.hash(0), kernel.lock(0))
        assert seen.setdefault(key, position) == position
    # Swapping the colours of one square changes the hash (no cancelling between the two masks).
    kernel.set_root(1 << 31, 1 << 5)
    first = kernel.hash(0), kernel.lock(0)
    kernel.set_root(1 << 5, 1 << 31)
    assert (kernel.hash(0), kernel.lock(0)) != first


# ----- forced moves -------------------------------------------------------------


def forced_board(rng, moves, empties_range):
    """A position from random play with exactly `moves` legal moves (0: a forced pass) and empties in range."""
    while True:
        board = Board()
        while not board.is_game_over() and board.empties() >= empties_range[0]:
            squares = board.legal_squares()
            if len(squares) == moves and board.empties() <= empties_range[1] and not board.is_game_over():
                return board
            if squares:
                board.play(rng.choice(squares))
            else:
                board.pass_turn()


@pytest.mark.parametrize("moves", (0, 1))
def test_a_forced_pass_or_single_move_is_answered_without_a_search(moves):
    board = forced_board(random.Random(13 + moves), moves, (12, 16))  # inside the top level's solver range
    decision = think(board, len(LEVELS), now=FakeClock())
    expected = PASS if moves == 0 else board.legal_squares()[0]
    assert decision.square == expected and decision.nodes == 0 and decision.elapsed_ms <= 5, decision
    assert not decision.exact and isinstance(decision.score, float)  # the evaluation's estimate


def test_a_single_move_that_ends_the_game_has_its_exact_score():
    board = Board.from_position("XXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOOXXXXXXX-OOOOOOO X")
    decision = think(board, 1)
    assert decision.square == 56 and decision.exact and decision.nodes == 0
    assert decision.score == solve(board)[0]
