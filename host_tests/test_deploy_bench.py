"""The device benchmarks run on the host: the overview (make bench-device) under both host MicroPythons
with --quick, `bench.py endgame` and `bench.py search --plain` on the unix port (the device's moves,
docs/DEVICE_SPEED.md), and `bench.py solver-tree` (the solver's tree with a bigger table or an oracle's
moves)."""

import pytest

from device import bench
from player.levels import BASE_MHZ, LEVELS
from runners import micropython_runner

POSITIONS = [bench.POSITIONS.parent]


def test_device_bench_quick_run(micropython, compiled_firmware):
    code = bench.workload_code("overview", argv=["--quick"])
    if micropython.interpreter == "unix":
        # The firmware compiled as `make flash` compiles it, in a small heap. 256K
        # on this 64-bit port (8-byte words) holds what about 192K holds on the
        # Pico: docs/MEMORY.md.
        output = micropython_runner.run_unix(code, heap="256K", firmware=compiled_firmware)
    else:  # the WASI build's collector is off, so it keeps its big heap
        output = micropython(code)
    figures = dict(line.split(" ", 1) for line in output.splitlines())
    assert figures["device_bench"] == "quick"
    assert figures["kernel"] in ("plain", "viper")
    assert figures["perft_depth"] == "3" and figures["perft_leaves"] == "56"
    assert not [name for name in figures if "WRONG" in name]
    assert int(figures["perft_nodes_per_s"]) > 0
    assert int(figures["perft_bytes_per_node"]) >= 0
    if figures["kernel"] == "viper":
        assert figures["perft_viper_leaves"] == "56"
    assert int(figures["search_moves"]) >= 1
    assert int(figures["search_nodes_per_s"]) > 0
    assert int(figures["search_ms_per_move"]) <= int(figures["search_ms_per_move_max"])
    assert int(figures["free_heap_start"]) > 0 and int(figures["free_heap_end"]) > 0


def test_device_endgame_runs_on_the_unix_port():
    # The whole command, solves of 12 to 16 empties (about 10 s here): the player's engine swaps its
    # two viper fast paths during it, and the solver part must still have a working solver.
    output = micropython_runner.run_unix(bench.workload_code("endgame"), path=POSITIONS)
    figures = dict(line.split(" ", 1) for line in output.splitlines() if not line.startswith("level_8_move "))
    for empties in (14, 16):
        assert figures["solver_%d_positions" % empties] == "8"
        assert int(figures["solver_%d_ms_median" % empties]) <= int(figures["solver_%d_ms_worst" % empties])
    assert figures["endgame_14_positions"] == "8"
    assert output.count("level_8_move ") == 8
    # the top level's moves at its own budgets at the base clock, on positions of as many empties as it solves from
    assert figures["level_8_mhz"] == str(BASE_MHZ)
    assert figures["level_8_solve_nodes"] == str(LEVELS[-1].solve_nodes)
    # the unix port's heap has room for every viper fast path: none of the level's searches ran the plain code
    served = [line.split()[-1] for line in output.splitlines() if line.startswith("level_8_move ")]
    assert "viper" in served and set(served) <= {"viper", "none"}, output


def test_device_search_plain_plays_every_level_without_the_fast_paths():
    output = micropython_runner.run_unix(bench.workload_code("search", PLAIN=True))
    lines = [line.split() for line in output.splitlines()]
    moves = [line for line in lines if line[0] == "level"]
    assert sorted({(line[1], line[2]) for line in moves}) == [(str(level), str(ply)) for level in (5, 6, 7, 8) for ply in (20, 32, 46, 50)]
    assert all(int(line[3]) > 0 for line in moves)
    assert ["fast_path_modules_loaded", "0"] in lines, output


def run_solver_tree(values):
    """`bench.py solver-tree`'s output on the unix port, given these command-line values."""
    return micropython_runner.run_unix(bench.workload_code("solver_tree", argv=values), path=POSITIONS)


def solver_tree(*values):
    lines = [line.split() for line in run_solver_tree(values).splitlines()]
    positions = [(int(line[3]), int(line[5])) for line in lines if line[0] == "position"]
    return positions, lines[-1]


def test_solver_tree_primes_the_oracles_moves_without_changing_a_score():
    plain, summary = solver_tree(12, 10, 0)
    assert summary[:7] == ["tree", "12", "table_bits", "10", "oracle_plies", "0", "nodes"]
    assert len(plain) == 8 and int(summary[7]) == sum(nodes for _, nodes in plain)
    assert int(summary[11]) == max(nodes for _, nodes in plain)
    primed, summary = solver_tree(12, 12, 2)
    assert summary[:6] == ["tree", "12", "table_bits", "12", "oracle_plies", "2"]
    # the oracle's moves are tried first, and only that: the same exact scores from a different tree
    assert [score for score, _ in primed] == [score for score, _ in plain]
    assert [nodes for _, nodes in primed] != [nodes for _, nodes in plain]


@pytest.mark.parametrize("values, problem", [((15,), "no positions of 15"), ((16, 3), "TABLE_BITS 3"),
                                             ((16, 10, 5), "ORACLE_PLIES 5"), (("x",), "'x' is not a whole"),
                                             ((16, 10, 0, 1), "at most three")])
def test_solver_tree_refuses_bad_values_with_its_usage(values, problem):
    with pytest.raises(micropython_runner.MicroPythonError) as failure:
        run_solver_tree(values)
    assert "exited with 2" in str(failure.value) and problem in str(failure.value) and "usage:" in str(failure.value)


def test_device_game_plays_anti_othello_on_8x8():
    from othello.board import Board
    from othello.variant import Variant

    def game(anti):
        lines = [line.split() for line in micropython_runner.run_unix(bench.workload_code("game", ANTI=anti)).splitlines()]
        return [line[2] for line in lines if line[0] == "move"], lines

    moves, lines = game(True)
    board = Board(Variant(anti=True))
    for move in moves:
        board.pass_turn() if move == "pass" else board.play(move)  # each move legal in turn
    black, white = lines[-1][1:3]
    assert board.is_game_over() and (board.count(0), board.count(1)) == (int(black), int(white))
    assert ["viper_solver", "True"] in lines
    assert moves != game(False)[0]  # Othello's game is another: the levels play each variant's own weights


def test_device_game_refuses_anti_othello_beside_6x6(capsys):
    with pytest.raises(SystemExit):
        bench.main(["game", "--size", "6", "--anti", "--port", "unix"])
    assert "--anti is for the 8x8 board" in capsys.readouterr().err
