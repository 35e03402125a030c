"""PatternEvaluator holds two edge tables and reads the others from its file when the game needs them.

The scores must be exactly those of an evaluator holding all four tables,
a table is read only when the game moves into its phase (not per call), and
a bad or vanished weight file gives a clear error instead of wrong scores.
"""

import pytest

from player.evaluation import EDGE_BUCKETS, HEADER_SIZE, PatternEvaluator, weights_file

# Runs unchanged under CPython and both MicroPython builds (no `random` on the WASI build: an LCG).
# The reference reads the whole weight file and applies the evaluation's formula with all four
# edge tables in memory.
EQUALITY_CHECK = """
from othello.geometry import geometry
from othello.kernels import make_kernel
from player.evaluation import (DISC, EDGE_BUCKETS, EDGE_OFFSET, EDGE_SCALE, FEATURE_BUCKETS, FEATURE_COUNT,
                               HEADER_SIZE, WEIGHT_SHIFT, WEIGHTS_PER_BUCKET, PatternEvaluator, phase_table)


def next_random(state):
    return (state * 1103515245 + 12345) & 0x7FFFFFFF


def start_position(size):
    d = size // 2
    player = (1 << ((d - 1) * size + d)) | (1 << (d * size + d - 1))
    opponent = (1 << ((d - 1) * size + d - 1)) | (1 << (d * size + d))
    return player, opponent


def random_game(kernel, size, seed):
    \"\"\"Plays a random game into the kernel's plies 0, 1, ...; returns the last ply written.\"\"\"
    kernel.set_root(*start_position(size))
    ply = 0
    passes = 0
    while passes < 2 and ply < kernel.max_ply:
        count = kernel.generate(ply)
        if count:
            seed = next_random(seed)
            kernel.play(ply, kernel.move_list[ply * kernel.stride + (seed >> 8) % count])
            passes = 0
        else:
            kernel.pass_move(ply)
            passes += 1
        ply += 1
    return ply


class Reference:
    \"\"\"The evaluation with every table read from the file at once.\"\"\"

    def __init__(self, path, size, entries):
        with open(path, "rb") as stream:
            data = stream.read()
        count = FEATURE_BUCKETS * WEIGHTS_PER_BUCKET
        self.weights = []
        for i in range(count):
            value = data[HEADER_SIZE + 2 * i] | data[HEADER_SIZE + 2 * i + 1] << 8
            self.weights.append(value - 65536 if value >= 32768 else value)
        base = HEADER_SIZE + 2 * count
        self.tables = [data[base + phase * entries:base + (phase + 1) * entries] for phase in range(EDGE_BUCKETS)]
        assert len(self.tables[-1]) == entries
        self.feature_phase = phase_table(size * size, FEATURE_BUCKETS)
        self.edge_phase = phase_table(size * size, EDGE_BUCKETS)

    def score(self, f):
        empties = f[6]
        terms = (f[0], f[1], f[2], f[3], f[4], f[5], empties & 1, 1)
        at = self.feature_phase[empties] * WEIGHTS_PER_BUCKET
        total = 0
        for i in range(WEIGHTS_PER_BUCKET):
            total += self.weights[at + i] * terms[i]
        table = self.tables[self.edge_phase[empties]]
        for i in range(7, 11):
            total += (table[f[i]] - EDGE_OFFSET) * EDGE_SCALE
        return total >> WEIGHT_SHIFT


def check(size, anti, games, seed):
    kernel = make_kernel(geometry(size), 80)
    evaluator = PatternEvaluator(size, anti)
    reference = Reference(evaluator.source, size, evaluator.edge_entries)
    features = [0] * FEATURE_COUNT
    checked = 0
    total = 0
    phases = set()
    for game in range(games):
        last = random_game(kernel, size, seed + game)
        for ply in range(last + 1):
            kernel.features(ply, features)
            phases.add(reference.edge_phase[features[6]])
            score = evaluator.evaluate(kernel, ply)
            if score != reference.score(features):
                print("mismatch", size, anti, game, ply, score, reference.score(features))
            checked += 1
            total += score
    in_order = evaluator.loads
    # Positions from every phase in random order: a table is read at nearly every call.
    state = seed
    for _ in range(checked):
        state = next_random(state)
        ply = (state >> 8) % (last + 1)
        kernel.features(ply, features)
        if evaluator.evaluate(kernel, ply) != reference.score(features):
            print("mismatch at random", size, anti, ply)
    print("checked", size, int(anti), checked, len(phases), in_order, evaluator.loads - in_order, total // DISC)


def main():
    check(8, False, GAMES, 1)
    check(8, True, GAMES, 2)
    check(6, False, GAMES, 3)
    check(6, True, GAMES, 4)


main()
"""

# Under the unix port: bytes held by a new PatternEvaluator(8), then bytes allocated by
# evaluations (gc off so that no collection hides any). A kernel that replays recorded
# features keeps the kernel's own allocations (its bitboards) out of the count.
MEMORY_CHECK = """
import gc
from othello.geometry import geometry
from othello.kernels import make_kernel
from player.evaluation import FEATURE_COUNT, PatternEvaluator


class FeatureReplay:
    def __init__(self, rows):
        self.rows = rows

    def features(self, ply, out):
        row = self.rows[ply]
        for i in range(FEATURE_COUNT):
            out[i] = row[i]


def recorded_games(games):
    kernel = make_kernel(geometry(8), 80)
    rows = []
    features = [0] * FEATURE_COUNT
    for seed in range(games):
        last = random_game(kernel, 8, seed)
        for ply in range(last + 1):
            kernel.features(ply, features)
            rows.append(tuple(features))
    return rows


def evaluate_all(evaluator, replay, first, end, repeats):
    \"\"\"Each position `repeats` times in a row: what a search does, many leaves per phase.\"\"\"
    for ply in range(first, end):
        for _ in range(repeats):
            evaluator.evaluate(replay, ply)


def allocated(work, *args):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    work(*args)
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def main():
    games = 6
    replay = FeatureReplay(recorded_games(games))
    calls = len(replay.rows)  # the last 10 are the end of a game: all in phase 0
    gc.collect()
    before = gc.mem_alloc()
    evaluator = PatternEvaluator(8)
    gc.collect()
    print("held", gc.mem_alloc() - before, evaluator.edge_entries)
    evaluator.evaluate(replay, calls - 1)  # the end of the last game: the phase next used
    print("same_phase", allocated(evaluate_all, evaluator, replay, calls - 10, calls, 100), evaluator.loads)
    loads = evaluator.loads
    used = allocated(evaluate_all, evaluator, replay, 0, len(replay.rows), 10)
    print("all_phases", used, evaluator.loads - loads, 10 * len(replay.rows), games)


main()
"""


def random_game_code():
    """EQUALITY_CHECK's helpers without its main(), for MEMORY_CHECK to reuse."""
    return EQUALITY_CHECK[:EQUALITY_CHECK.index("\nclass Reference")]


def parse_checks(output):
    lines = output.splitlines()
    assert not [line for line in lines if line.startswith("mismatch")], output
    checked = {}
    for line in lines:
        if line.startswith("checked"):
            size, anti, count, phases, in_order, at_random, total = map(int, line.split()[1:])
            checked[(size, anti)] = (count, phases, in_order, at_random, total)
    assert sorted(checked) == [(6, 0), (6, 1), (8, 0), (8, 1)], output
    return checked


def run_on_cpython(code, capsys):
    exec(compile(code, "<check>", "exec"), {"__name__": "check"})
    return capsys.readouterr().out


def test_scores_equal_a_reference_holding_every_table(capsys):
    games = 12
    checked = parse_checks(run_on_cpython("GAMES = %d\n" % games + EQUALITY_CHECK, capsys))
    for (size, anti), (count, phases, in_order, at_random, total) in checked.items():
        assert count > games * size * size // 2, (size, anti, count)
        assert phases == EDGE_BUCKETS
        # In game order a table is read when the game enters its phase: at most once per phase per game.
        assert 2 <= in_order <= EDGE_BUCKETS * games, (size, anti, in_order)
        assert at_random > count // 4  # random jumps between phases really did reload tables


def test_scores_equal_the_reference_under_micropython(micropython, capsys):
    code = "GAMES = 3\n" + EQUALITY_CHECK
    checked = parse_checks(micropython(code))
    on_cpython = parse_checks(run_on_cpython(code, capsys))
    assert checked == on_cpython


def test_two_tables_held_and_reads_only_on_phase_changes_on_the_unix_port():
    import micropython_runner

    output = micropython_runner.run("unix", random_game_code() + MEMORY_CHECK)
    lines = dict((line.split()[0], list(map(int, line.split()[1:]))) for line in output.splitlines())
    held, entries = lines["held"]
    assert entries == 3321  # one per edge pattern number: a pattern and its mirror image share one
    # two tables, the 128 feature weights, phase tables and the object: four tables would take 13 KB
    assert 2 * entries <= held <= 2 * entries + 2048, output
    same_phase_bytes, loads = lines["same_phase"]
    assert same_phase_bytes == 0 and loads == 1, output
    used, loads, calls, games = lines["all_phases"]
    assert 1 <= loads <= EDGE_BUCKETS * games, output
    # each read opens the file (96 bytes on the unix port); the calls themselves allocate nothing
    assert used <= 256 * loads and calls > 100 * loads, output


# ----- the weight file: checked when the evaluator is made, and when a table is read ---------


@pytest.fixture
def weights(tmp_path):
    """(a copy of the 8x8 weight file to spoil, its bytes)."""
    original = PatternEvaluator(8).source
    with open(original, "rb") as stream:
        data = stream.read()
    copy = tmp_path / weights_file(8, False)
    copy.write_bytes(data)
    return copy, data


def midgame_kernel(empties):
    """A kernel whose ply 0 is a position of the 8x8 game with `empties` empty squares."""
    from othello.board import Board
    from othello.kernel import Kernel

    board = Board()
    while board.empties() > empties:
        moves = board.legal_squares()
        if moves:
            board.play(moves[-1])
        else:
            board.pass_turn()
    kernel = Kernel(board.geometry)
    kernel.set_root(board.player_discs(), board.opponent_discs())
    return kernel


def test_bad_files_fail_when_the_evaluator_is_made(weights, tmp_path):
    path, data = weights
    weights_end = HEADER_SIZE + 2 * 64
    spoiled = {
        "not a version 3 evaluation file": (b"NOPE" + data[4:], data[:4] + b"\x09" + data[5:],
                                            data[:4] + b"\x02" + data[5:], data[:10]),  # 2: full edge tables
        "made for another board or layout": (data[:5] + b"\x06" + data[6:], data[:6] + b"\x04" + data[7:]),
        "truncated": (data[:weights_end - 1], data[:weights_end], data[:-1]),
    }
    for message, contents in spoiled.items():
        for content in contents:
            path.write_bytes(content)
            with pytest.raises(ValueError, match="%s .*%s" % (path.name, message)):
                PatternEvaluator(8, path=str(path))
    with pytest.raises(ValueError, match="another board"):
        PatternEvaluator(6, path=str(path))  # an 8x8 file read for 6x6
    assert PatternEvaluator(8, path=str(tmp_path / "missing.bin")).source == "defaults"


def test_a_file_gone_or_spoiled_after_the_start_is_an_error_not_a_wrong_score(weights):
    path, data = weights
    opening, ending = midgame_kernel(50), midgame_kernel(10)
    evaluator = PatternEvaluator(8, path=str(path))
    expected = evaluator.evaluate(ending, 0)
    path.unlink()
    with pytest.raises(OSError, match=path.name):
        evaluator.evaluate(opening, 0)  # another phase: its table must be read
    assert evaluator.evaluate(ending, 0) == expected  # the tables in memory still serve
    path.write_bytes(data[:-1])
    with pytest.raises(ValueError, match="%s is truncated" % path.name):
        evaluator.evaluate(opening, 0)
    path.write_bytes(data[:5] + b"\x06" + data[6:])
    with pytest.raises(ValueError, match="another board"):
        evaluator.evaluate(opening, 0)
    path.write_bytes(data)  # put back: the half-read buffer was not taken for a loaded table
    assert evaluator.evaluate(opening, 0) == PatternEvaluator(8).evaluate(opening, 0)
    assert evaluator.evaluate(ending, 0) == expected


def test_without_a_file_there_are_no_edge_tables(tmp_path):
    evaluator = PatternEvaluator(8, path=str(tmp_path / "missing.bin"))
    assert evaluator.edge_buffers is None
    evaluator.evaluate(midgame_kernel(30), 0)
    assert evaluator.loads == 0
