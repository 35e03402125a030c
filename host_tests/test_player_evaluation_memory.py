"""PatternEvaluator holds one phase's tables and reads another phase's from its file when the game needs them.

The scores must be exactly those of a reference holding every phase's tables
and numbering the pattern fillings from their definition, a phase is read
only when the game moves into it (not per call), and a bad or vanished
weight file gives a clear error instead of wrong scores.
"""

import struct

import pytest

from player.evaluation import HEADER_SIZE, SCALARS, PatternEvaluator, weights_file

# Runs unchanged under CPython and both MicroPython builds (no `random` on the WASI build: an LCG).
# The reference reads the whole weight file and applies the evaluation's formula with every phase's
# tables in memory; it numbers a filling from the definition (the cells, then the two groups as an
# unordered pair), not through the evaluator's code.
EQUALITY_CHECK = """
from othello.geometry import geometry
from othello.kernels import make_kernel
from othello.kernel_tables import FEATURE_COUNT
from player.evaluation import DISC, HEADER_SIZE, SCALARS, TABLE_OFFSET, WEIGHT_SHIFT, PatternEvaluator


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
    \"\"\"The evaluation with every phase's tables read from the file at once.\"\"\"

    def __init__(self, path, size):
        with open(path, "rb") as stream:
            data = stream.read()
        phases, patterns = data[6], data[8]
        shift = data[10]
        table_bytes = data[12] | data[13] << 8 | data[14] << 16 | data[15] << 24
        self.scale = 1 << (8 - shift)
        at = HEADER_SIZE
        self.phase_of = data[at:at + size * size + 1]
        at += size * size + 1
        self.images = []  # (offset, fixed, half, squares)
        offset = 0
        for _ in range(patterns):
            fixed, half, count = data[at], data[at + 1], data[at + 2]
            at += 3
            places = fixed + 2 * half
            for image in range(count):
                self.images.append((offset, fixed, half, data[at + image * places:at + (image + 1) * places]))
            at += count * places
            offset += 3 ** fixed * (3 ** half * (3 ** half + 1) // 2)
        self.weights = []
        for i in range(phases * SCALARS):
            value = data[at + 2 * i] | data[at + 2 * i + 1] << 8
            self.weights.append(value - 65536 if value >= 32768 else value)
        at += 2 * phases * SCALARS
        self.tables = [data[at + phase * table_bytes:at + (phase + 1) * table_bytes] for phase in range(phases)]
        assert len(self.tables[-1]) == table_bytes

    def entry(self, cells, fixed, half):
        def number(values):
            total = 0
            for value in reversed(values):
                total = total * 3 + value
            return total

        a = number(cells[fixed:fixed + half])
        b = number(cells[fixed + half:])
        pairs = 3 ** half * (3 ** half + 1) // 2
        return number(cells[:fixed]) * pairs + max(a, b) * (max(a, b) + 1) // 2 + min(a, b)

    def score(self, f, player, opponent):
        empties = f[6]
        phase = self.phase_of[empties]
        terms = (f[0], f[1], f[2], f[3], f[4], f[5], empties & 1, 1)
        total = 0
        for i in range(SCALARS):
            total += self.weights[phase * SCALARS + i] * terms[i]
        table = self.tables[phase]
        for offset, fixed, half, squares in self.images:
            cells = [1 if player >> s & 1 else 2 if opponent >> s & 1 else 0 for s in squares]
            total += (table[offset + self.entry(cells, fixed, half)] - TABLE_OFFSET) * self.scale
        return total >> WEIGHT_SHIFT


def check(size, anti, games, seed):
    kernel = make_kernel(geometry(size), size * size)  # room for a whole game
    evaluator = PatternEvaluator(size, anti)
    reference = Reference(evaluator.source, size)
    features = [0] * FEATURE_COUNT
    checked = 0
    total = 0
    phases = set()
    for game in range(games):
        last = random_game(kernel, size, seed + game)
        for ply in range(last + 1):
            kernel.features(ply, features)
            phases.add(reference.phase_of[features[6]])
            score = evaluator.evaluate(kernel, ply)
            expected = reference.score(features, *kernel.position(ply))
            if score != expected:
                print("mismatch", size, anti, game, ply, score, expected)
            checked += 1
            total += score
    in_order = evaluator.loads
    # Positions from every phase in random order: the tables are read at nearly every call.
    state = seed
    for _ in range(checked):
        state = next_random(state)
        ply = (state >> 8) % (last + 1)
        kernel.features(ply, features)
        if evaluator.evaluate(kernel, ply) != reference.score(features, *kernel.position(ply)):
            print("mismatch at random", size, anti, ply)
    print("checked", size, int(anti), checked, len(phases), len(reference.tables), in_order,
          evaluator.loads - in_order, total // DISC)


def main():
    for size, anti, seed in VARIANTS:
        check(size, anti, GAMES, seed)


main()
"""

VARIANTS = ((8, False, 1), (8, True, 2), (6, False, 3), (6, True, 4), (10, False, 5))

# Under the unix port: bytes held by a new PatternEvaluator(8), then bytes allocated by evaluations
# (gc off so that no collection hides any). The viper kernel's position() makes the two masks as ints
# (a mask with square 63 taken is a big int there): what the plain evaluation reads.
MEMORY_CHECK = """
import gc
from othello.geometry import geometry
from othello.kernels import make_kernel
from player.evaluation import PatternEvaluator


def evaluate_all(evaluator, kernel, first, end, repeats):
    \"\"\"Each position `repeats` times in a row: what a search does, many leaves per phase.\"\"\"
    for ply in range(first, end):
        for _ in range(repeats):
            evaluator.evaluate(kernel, ply)


def allocated(work, *args):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    work(*args)
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def main():
    kernel = make_kernel(geometry(8), 80)  # the viper kernel: its features() allocate nothing
    last = random_game(kernel, 8, 7)
    gc.collect()
    before = gc.mem_alloc()
    evaluator = PatternEvaluator(8)
    gc.collect()
    print("held", gc.mem_alloc() - before, len(evaluator.table))
    evaluator.evaluate(kernel, last)  # the end of the game: the phase next used
    print("same_phase", allocated(evaluate_all, evaluator, kernel, last - 4, last + 1, 50), 250, evaluator.loads)
    loads = evaluator.loads
    used = allocated(evaluate_all, evaluator, kernel, 0, last + 1, 10)
    print("all_phases", used, evaluator.loads - loads, 10 * (last + 1))


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
            size, anti, count, seen, phases, in_order, at_random, total = map(int, line.split()[1:])
            checked[(size, anti)] = (count, seen, phases, in_order, at_random, total)
    assert sorted(checked) == sorted((size, int(anti)) for size, anti, _ in VARIANTS), output
    return checked


def run_on_cpython(code, capsys):
    exec(compile(code, "<check>", "exec"), {"__name__": "check"})
    return capsys.readouterr().out


def source(games):
    return "GAMES = %d\nVARIANTS = %r\n" % (games, VARIANTS) + EQUALITY_CHECK


def test_scores_equal_a_reference_holding_every_table(capsys):
    games = 12
    checked = parse_checks(run_on_cpython(source(games), capsys))
    for (size, anti), (count, seen, phases, in_order, at_random, total) in checked.items():
        assert count > games * size * size // 2, (size, anti, count)
        assert seen == phases  # random games reach every phase
        # In game order the tables are read when the game enters a phase: at most once per phase per game.
        assert 2 <= in_order <= phases * games, (size, anti, in_order)
        assert at_random > count // 4  # random jumps between phases really did read tables again


def test_scores_equal_the_reference_under_micropython(micropython, capsys):
    code = source(2)
    checked = parse_checks(micropython(code))
    on_cpython = parse_checks(run_on_cpython(code, capsys))
    assert checked == on_cpython


def test_one_phase_held_and_reads_only_on_phase_changes_on_the_unix_port():
    from runners import micropython_runner

    output = micropython_runner.run("unix", random_game_code() + MEMORY_CHECK)
    lines = dict((line.split()[0], list(map(int, line.split()[1:]))) for line in output.splitlines())
    held, table_bytes = lines["held"]
    assert table_bytes > 10000  # the 8x8 file's patterns: one phase's tables
    # one phase's tables, the scalar weights, the phase map and the pattern layout: not two phases
    assert table_bytes <= held <= table_bytes + 6144, output
    same_phase_bytes, calls, loads = lines["same_phase"]
    assert loads == 1, output  # the phase of the game's end, read once
    # a call reads the position from the kernel (a tuple of two ints), nothing else
    assert same_phase_bytes <= 48 * calls, output
    used, loads, calls = lines["all_phases"]
    assert 1 <= loads <= 10, output  # a whole game in order: each phase read once
    assert used <= 48 * calls + 256 * loads, output


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
    layout_at = HEADER_SIZE + 65
    weights_end = len(data) - data[6] * struct.unpack("<I", data[12:16])[0]
    spoiled = {
        "not a version 4 evaluation file": (b"NOPE" + data[4:], data[:4] + b"\x09" + data[5:],
                                            data[:4] + b"\x03" + data[5:], data[:10]),  # 3: the edge-only format
        "made for another board or layout": (data[:5] + b"\x06" + data[6:], data[:7] + bytes([SCALARS + 1]) + data[8:]),
        "truncated": (data[:layout_at - 1], data[:weights_end - 1], data[:-1]),
        "too long": (data + b"\x80",),
        "need": (data[:12] + struct.pack("<I", struct.unpack("<I", data[12:16])[0] + 1) + data[16:],),
        "damaged": (data[:HEADER_SIZE] + bytes([data[6]]) + data[HEADER_SIZE + 1:],),  # a phase beyond the last
    }
    for message, contents in spoiled.items():
        for content in contents:
            path.write_bytes(content)
            with pytest.raises(ValueError, match="%s.*%s" % (path.name, message)):
                PatternEvaluator(8, path=str(path))
    path.write_bytes(data)
    with pytest.raises(ValueError, match="another board"):
        PatternEvaluator(6, path=str(path))  # an 8x8 file read for 6x6
    assert PatternEvaluator(8, path=str(tmp_path / "missing.bin")).source == "defaults"


def test_a_file_gone_or_spoiled_after_the_start_is_an_error_not_a_wrong_score(weights):
    path, data = weights
    opening, ending = midgame_kernel(58), midgame_kernel(10)  # the file's last phase, and an early one
    evaluator = PatternEvaluator(8, path=str(path))
    expected = evaluator.evaluate(ending, 0)
    path.unlink()
    with pytest.raises(OSError, match=path.name):
        evaluator.evaluate(opening, 0)  # another phase: its tables must be read
    assert evaluator.evaluate(ending, 0) == expected  # the phase read before the loss still serves
    path.write_bytes(data[:-1])
    with pytest.raises(ValueError, match="%s is truncated" % path.name):
        evaluator.evaluate(opening, 0)
    path.write_bytes(data[:5] + b"\x06" + data[6:])
    with pytest.raises(ValueError, match="another board"):
        evaluator.evaluate(opening, 0)
    path.write_bytes(data)  # put back: the half-read buffer was not taken for a phase's tables
    assert evaluator.evaluate(opening, 0) == PatternEvaluator(8).evaluate(opening, 0)
    assert evaluator.evaluate(ending, 0) == expected


def test_without_a_file_there_are_no_tables(tmp_path):
    evaluator = PatternEvaluator(8, path=str(tmp_path / "missing.bin"))
    assert evaluator.table is None
    evaluator.evaluate(midgame_kernel(30), 0)
    assert evaluator.loads == 0
