"""The training tools (issue 14): numpy bitboards, the self-play data maker and the pattern fitter, on small data."""

import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from training import training_boards as boards
from training import training_data
from training import training_fit
from othello.geometry import geometry
from othello.kernel import Kernel
from othello.variant import Variant
from othello import Board
from player import solve

SMALL = ["--games", "2", "--chunk-games", "1", "--exact-empties", "10", "--search-nodes", "300", "--jobs", "2"]


def random_positions(count, seed, size=8):
    """Positions from random games (every stage of the game), as uint64 arrays and Boards."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = Board(Variant(size=size))
        for _ in range(rng.randint(0, size * size - 9)):
            moves = board.legal_squares()
            if not moves:
                if board.is_game_over():
                    break
                board.pass_turn()
                continue
            board.play(rng.choice(moves))
        if not board.is_game_over():
            found.append(board)
    player = np.array([b.player_discs() for b in found], dtype=np.uint64)
    opponent = np.array([b.opponent_discs() for b in found], dtype=np.uint64)
    return player, opponent, found


def square_map(square, kind):
    """A symmetry on square numbers, written out by rows and columns (the numpy versions work on bits)."""
    row, column = divmod(square, 8)
    if kind == "vertical":
        row = 7 - row
    elif kind == "horizontal":
        column = 7 - column
    else:
        row, column = column, row
    return row * 8 + column


# ----- bitboards -----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [6, 8])
def test_legal_moves_and_features_match_the_rules_engine_and_the_kernel(size):
    player, opponent, found = random_positions(200, 1, size)
    moves = boards.legal_moves(player, opponent, size)
    assert [int(m) for m in moves] == [b.legal_moves() for b in found]
    kernel = Kernel(geometry(size))
    features = [0] * 7
    potential = boards.potential_mobility(player, opponent, size)
    opponent_potential = boards.potential_mobility(opponent, player, size)
    x_squares = boards.x_squares(player, opponent, size)
    for i, board in enumerate(found):
        kernel.set_root(board.player_discs(), board.opponent_discs())
        kernel.features(0, features)
        assert features[2:5] == [potential[i], opponent_potential[i], x_squares[i]]


@pytest.mark.parametrize("kind, function", [("vertical", boards.flip_vertical), ("horizontal", boards.mirror_horizontal),
                                            ("diagonal", boards.flip_diagonal)])
def test_symmetries_move_every_square_where_the_board_says(kind, function):
    squares = np.array([1 << s for s in range(64)], dtype=np.uint64)
    moved = function(squares)
    assert [int(m).bit_length() - 1 for m in moved] == [square_map(s, kind) for s in range(64)]


@pytest.mark.parametrize("size", [6, 8])
def test_symmetric_positions_have_one_canonical_form(size):
    player, opponent, _ = random_positions(50, 2, size)
    canonical = boards.canonical(player, opponent, size)
    images = list(zip(boards.symmetries(player, size), boards.symmetries(opponent, size)))
    assert len({(int(p[0]), int(o[0])) for p, o in images}) > 1  # the images differ ...
    for p, o in images:
        image = boards.canonical(p, o, size)  # ... and have one canonical form
        assert (image[0] == canonical[0]).all() and (image[1] == canonical[1]).all()


def test_the_symmetries_agree_with_the_books():
    """The 8x8 bit tricks give the images player/book.py's square maps give (in another order)."""
    player, _, _ = random_positions(30, 5)
    fast = np.sort(np.stack(boards.symmetries(player)), axis=0)
    mapped = np.sort(np.stack([boards.permuted(player, square_map) for square_map in boards.symmetry_maps(8)]), axis=0)
    assert (fast == mapped).all()


# ----- pattern sets ----------------------------------------------------------------------------


def test_pattern_tables_hold_each_filling_once():
    edge = training_fit.Pattern("edge", ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"])
    assert len(edge.images) == 4 and edge.entries == (3 ** 8 + 3 ** 4) // 2
    corner = training_fit.Pattern("corner", ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"])
    assert len(corner.images) == 4 and corner.entries == (3 ** 9 + 3 ** 6) // 2
    diagonal = training_fit.Pattern("diagonal", ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"])
    assert len(diagonal.images) == 2
    block = training_fit.Pattern("block", ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"])
    assert len(block.images) == 8 and block.entries == 3 ** 8


@pytest.mark.parametrize("name", ["pico", "edax", "edges"])
def test_symmetric_positions_read_the_same_entries(name):
    pattern_set = training_fit.PatternSet(training_fit.PATTERN_DIR / (name + ".json"))
    player, opponent, _ = random_positions(40, 3)
    reference = np.sort(pattern_set.columns(player, opponent), axis=1)
    for p, o in zip(boards.symmetries(player), boards.symmetries(opponent)):
        assert (np.sort(pattern_set.columns(p, o), axis=1) == reference).all()


def test_the_pico_set_fits_the_budget_and_edax_does_not():
    assert training_fit.PatternSet(training_fit.PATTERN_DIR / "pico.json").table_entries <= training_fit.BUDGET_BYTES
    assert training_fit.PatternSet(training_fit.PATTERN_DIR / "edax.json").table_entries > training_fit.BUDGET_BYTES


@pytest.mark.parametrize("spec, message", [
    ('{"patterns": {"x": ["a1", "z9"]}}', "not a square name"),
    ('{"patterns": {"x": ["a1", "a1"]}}', "names a square twice"),
    ('{"patterns": {}}', '{"patterns"'),
    ('{"patterns": {"x": ["a1"]}, "features": ["luck"]}', "unknown feature(s) luck"),
    ("not json", "is not valid JSON"),
])
def test_bad_pattern_sets_are_refused_plainly(tmp_path, capsys, spec, message):
    path = tmp_path / "bad.json"
    path.write_text(spec)
    write_data(tmp_path, 50)
    assert training_fit.main(["--patterns", str(path), "--data", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err


# ----- the fit ---------------------------------------------------------------------------------


def write_data(directory, count, labels=None, seed=4, size=8):
    player, opponent, found = random_positions(count, seed, size)
    empties = np.array([b.empties() for b in found], dtype=np.int8)
    score = np.zeros(count, dtype=np.float32) if labels is None else labels(player, opponent, empties)
    exact = empties <= 14
    cut = count * 4 // 5
    for name, rows in (("train", slice(0, cut)), ("test", slice(cut, count))):
        np.savez_compressed(directory / (name + ".npz"), player=player[rows], opponent=opponent[rows],
                            empties=empties[rows], score=score[rows], exact=exact[rows])


def test_the_fit_finds_a_planted_pattern_model(tmp_path):
    """Labels made by a known edge model plus mobility: the fit reproduces them on held-out positions."""
    pattern_set = training_fit.PatternSet(training_fit.PATTERN_DIR / "edges.json")
    rng = np.random.default_rng(5)
    planted = np.concatenate([rng.normal(0, 3, pattern_set.table_entries), [1.5, -1.0, 2.0, 0.5]])

    def labels(player, opponent, empties):
        design = training_fit.Design(pattern_set.columns(player, opponent),
                                     pattern_set.scalars(player, opponent, empties), pattern_set.table_entries)
        return design.times(planted).astype(np.float32)

    write_data(tmp_path, 3000, labels)
    train, test = training_fit.load(tmp_path, "train"), training_fit.load(tmp_path, "test")
    results, predictions = training_fit.fit(pattern_set, train, test, 61, 0, 0.01, 500)
    assert len(results) == 1
    # edge fillings the test set shows but training never did are unknown: most are seen, so the error is small
    assert results[0]["rms_search"] < 0.3 * results[0]["spread"]
    assert results[0]["train_rms"] < 0.05 * results[0]["spread"]
    # the scalar weights come back (the bias trades with a constant in the tables, so it is not compared)
    assert np.allclose(results[0]["scalars"][:3], planted[-4:-1], atol=0.1)
    bands = {row[0]: row[1:] for row in training_fit.band_rows(test, predictions)}
    exact_early = bands["exact labels, 0-19 empties"]
    assert exact_early[0] == int((test["exact"] & (test["empties"] <= 19)).sum()) > 0
    assert exact_early[1] == pytest.approx(results[0]["rms_exact"])  # every exact label has <= 14 empties here
    chosen = test["exact"] & (test["empties"] <= 19)
    errors = predictions["fit"][chosen] - test["score"][chosen]
    assert exact_early[4] == pytest.approx(float(np.mean(np.abs(errors))))  # the fit's mean absolute error
    assert 0 < exact_early[4] <= exact_early[1] and 0 < exact_early[6] <= exact_early[3]


def test_fit_report_is_written(tmp_path, capsys):
    write_data(tmp_path, 400, lambda p, o, e: (boards.popcount(p) - boards.popcount(o)).astype(np.float32))
    report = tmp_path / "out.txt"
    assert training_fit.main(["--patterns", "edges", "--data", str(tmp_path), "--phase-empties", "20",
                              "--report", str(report)]) == 0
    text = report.read_text()
    assert text == capsys.readouterr().out
    assert "| edge | 8 | 4 | 3321 |" in text and "3321 bytes a phase" in text and "within the Pico's budget" in text
    assert "| 0-19 |" in text and "| 40-60 |" in text
    assert "| exact labels, 20-24 empties |" in text and "| search labels, 25-60 empties |" in text
    assert "| held-out positions | count | fit | q | shipped | fit, mean absolute | q | shipped |" in text
    assert "- 40-60 empties: " in text


@pytest.mark.parametrize("name, size", [("device", 8), ("device6", 6)])
def test_the_written_weight_file_scores_as_the_fit_predicts(tmp_path, capsys, name, size):
    """--write: PatternEvaluator reading the file gives each held-out position the fit's score with the
    tables rounded to bytes (to the evaluation's 1/16 disc), and the set's layout is the one the viper
    search has built in (for 8x8)."""
    from player.evaluation import DISC, PatternEvaluator

    write_data(tmp_path, 600, lambda p, o, e: (boards.popcount(boards.legal_moves(p, o, size)) * 1.5
                                               - boards.popcount(p) + boards.popcount(o) + (p & 1) * 4.0
                                               ).astype(np.float32), size=size)
    weights = tmp_path / "eval.bin"
    assert training_fit.main(["--patterns", name, "--data", str(tmp_path), "--phase-empties", "8",
                              "--report", str(tmp_path / "out.txt"), "--write", str(weights),
                              "--baseline", str(tmp_path / "none.bin")]) == 0
    assert "wrote %s" % weights in capsys.readouterr().err
    pattern_set = training_fit.PatternSet(training_fit.PATTERN_DIR / (name + ".json"))
    test = training_fit.load(tmp_path, "test")
    train = training_fit.load(tmp_path, "train")
    results, predictions = training_fit.fit(pattern_set, train, test, 8, 2, 5.0, 300)
    evaluator = PatternEvaluator(size, path=str(weights))
    kernel = Kernel(geometry(size))
    for i in range(len(test["score"])):
        kernel.set_root(int(test["player"][i]), int(test["opponent"][i]))
        assert abs(evaluator.evaluate(kernel, 0) / DISC - predictions["q"][i]) < 0.25, i
    if size == 8:
        from codegen import gen_viper

        assert gen_viper.read_layout(weights.read_bytes(), str(weights))[1] == PatternEvaluator(8).layout


def test_a_yardstick_that_cannot_be_read_is_said_plainly(tmp_path, capsys):
    write_data(tmp_path, 200)
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"OTEV\x04rubbish")
    assert training_fit.main(["--patterns", "edges", "--data", str(tmp_path), "--baseline", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "the yardstick's weights cannot be read" in err and "bad.bin" in err and "Traceback" not in err


def test_fit_without_data_says_how_to_make_it(tmp_path, capsys):
    assert training_fit.main(["--data", str(tmp_path)]) == 1
    assert "make training-data" in capsys.readouterr().err


@pytest.mark.parametrize("ridge", ["-1", "nan", "inf", "lots"])
def test_bad_ridge_is_refused(capsys, ridge):
    with pytest.raises(SystemExit):
        training_fit.main(["--ridge", ridge])
    assert "argument --ridge: must be a finite number of at least 0, not %s" % ridge in capsys.readouterr().err


def test_unknown_pattern_set_name_is_refused(capsys):
    with pytest.raises(SystemExit):
        training_fit.main(["--patterns", "nonesuch"])
    err = capsys.readouterr().err
    assert "no pattern set nonesuch (tools/training/patterns/ has: " in err and "device, " in err and "edges" in err


# ----- the data maker ----------------------------------------------------------------------------


def load_npz(path):
    with np.load(path) as data:
        return {key: data[key] for key in data.files}


def test_game_plans_are_reproducible_and_diverse():
    balanced = training_data.balanced_openings()
    plans = [training_data.game_plan(1, i, balanced) for i in range(40)]
    assert plans == [training_data.game_plan(1, i, balanced) for i in range(40)]
    assert plans != [training_data.game_plan(2, i, balanced) for i in range(40)]
    starts = [opening for _, opening, _ in plans]
    assert training_data.START in starts and len(set(starts) - {training_data.START}) > 5


def test_small_run_labels_resumes_and_reproduces(tmp_path, capsys):
    out = tmp_path / "data"
    assert training_data.main(SMALL + ["--out", str(out)]) == 0
    out_text, err = capsys.readouterr()
    assert "2/2 games" in err and "positions/s" in err and "left" in err
    assert re.search(r"this run: 2 games, \d+ positions in 0:\d\d:\d\d; the workers searched \d+ s and solved", out_text)
    chunks = sorted((out / "chunks").iterdir())
    assert [path.name for path in chunks] == ["chunk-00000.txt", "chunk-00001.txt"]
    train, test = load_npz(out / "train.npz"), load_npz(out / "test.npz")
    assert len(train["score"]) > 60 and len(test["score"]) >= 1
    # the exact labels are what the plain solver says; the search labels come before them in a game
    exact = np.flatnonzero(train["exact"])
    assert len(exact) > 10 and (train["empties"][exact] <= 10).all() and (train["empties"][~train["exact"]] > 10).all()
    for i in exact[:6]:
        board = Board.from_position(position_text(int(train["player"][i]), int(train["opponent"][i])))
        assert solve(board)[0] == train["score"][i]
    # from the exact empties on the game is played perfectly: its result is every exact position's label
    assert (train["result"][exact] == train["score"][exact]).all()
    assert (np.abs(train["result"]) <= 64).all() and len(set(train["result"].tolist())) > 1
    # no position twice, even as a symmetric image; none shared between the two sets
    keys = set(zip(*(a.tolist() for a in boards.canonical(train["player"], train["opponent"]))))
    test_keys = set(zip(*(a.tolist() for a in boards.canonical(test["player"], test["opponent"]))))
    assert len(keys) == len(train["score"]) and not keys & test_keys

    # run again: nothing left to play, the same data
    assert training_data.main(SMALL + ["--out", str(out)]) == 0
    assert "resuming: 2 of 2 chunks already done" in capsys.readouterr().err
    # a lost chunk (an interruption) is played again, and comes out the same
    first = chunks[1].read_text()
    chunks[1].unlink()
    assert training_data.main(SMALL + ["--out", str(out)]) == 0
    assert "resuming: 1 of 2 chunks already done" in capsys.readouterr().err
    assert chunks[1].read_text() == first
    assert (load_npz(out / "train.npz")["score"] == train["score"]).all()
    # more games extend the run: the games played so far are its first ones, and only the new one is played
    assert training_data.main(SMALL + ["--out", str(out), "--games", "3"]) == 0
    out_text, err = capsys.readouterr()
    assert "extending the run from 2 to 3 games" in err and "resuming: 2 of 3 chunks already done" in err
    assert "this run: 1 game," in out_text and chunks[1].read_text() == first
    assert json.loads((out / training_data.SETTINGS_FILE).read_text())["games"] == 3
    assert (out / "chunks" / "chunk-00002.txt").stat().st_size > 0


@pytest.mark.parametrize("anti", [False, True])
def test_6x6_runs_search_inside_the_8x8_board_and_play_the_solved_part_perfectly(tmp_path, capsys, anti):
    """The 6x6 games run on the viper search and solver, the board inside the 8x8 one: every exact label is
    what the plain solver says of the 6x6 position, and the moves played from there keep it (the squares
    come back to the 6x6 board's)."""
    out = tmp_path / "data"
    arguments = ["--size", "6", "--games", "4", "--chunk-games", "2", "--exact-empties", "12", "--search-nodes",
                 "2000", "--jobs", "2", "--out", str(out)] + (["--anti"] if anti else [])
    assert training_data.main(arguments) == 0
    assert json.loads((out / training_data.SETTINGS_FILE).read_text())["embedded"] is True
    capsys.readouterr()
    lines = [line.split() for path in sorted((out / "chunks").iterdir()) for line in path.read_text().splitlines()]
    exact = [line for line in lines if line[3] == "exact"]
    assert len(exact) > 20 and {int(line[2]) for line in exact} >= set(range(2, 13))
    assert all(int(line[4]) == int(line[5]) for line in exact)  # perfect play from the first solve on
    variant = Variant(size=6, anti=anti)
    for player, opponent, _, _, score, _ in exact[::7]:
        player, opponent = int(player, 16), int(opponent, 16)
        text = "".join("X" if player >> s & 1 else "O" if opponent >> s & 1 else "-" for s in range(36)) + " X"
        assert solve(Board.from_position(text, variant))[0] == int(score)


def test_ctrl_c_keeps_the_finished_chunks_and_the_same_command_goes_on(tmp_path):
    """Ctrl-C at a terminal (SIGINT to the whole process group): the workers end, finished chunks stay."""
    out = tmp_path / "data"
    command = [sys.executable, str(training_data.HERE / "training_data.py"), "--games", "8", "--chunk-games", "1",
               "--exact-empties", "10", "--search-nodes", "300", "--jobs", "1", "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    deadline = time.monotonic() + 120
    while not list((out / "chunks").glob("chunk-*.txt")) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted: the finished chunks are kept in %s; run the same command to go on" % out in err
    kept = len(list((out / "chunks").glob("chunk-*.txt")))
    assert 1 <= kept < 8 and not list((out / "chunks").glob("*.tmp")) and not (out / "train.npz").exists()
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "resuming: %d of 8 chunks already done" % kept in done.stderr
    assert len(list((out / "chunks").glob("chunk-*.txt"))) == 8 and (out / "train.npz").exists()


def position_text(player, opponent):
    """A position with `player` (Black) to move."""
    return "".join("X" if player >> s & 1 else "O" if opponent >> s & 1 else "-" for s in range(64)) + " X"


def test_other_settings_do_not_mix_with_the_data(tmp_path, capsys):
    out = tmp_path / "data"
    (out / "chunks").mkdir(parents=True)
    (out / training_data.SETTINGS_FILE).write_text(json.dumps({"games": 5}))
    assert training_data.main(SMALL + ["--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "holds data made with other settings" in err and "games 5 -> 2" in err and "--fresh" in err


def test_a_run_grows_only_from_whole_chunks_and_a_damaged_settings_file_is_named(tmp_path, capsys):
    out = tmp_path / "data"
    (out / "chunks").mkdir(parents=True)
    settings = dict(games=3, seed=1, exact_empties=10, search_nodes=300, chunk_games=2, epsilon=training_data.EPSILON,
                    test_percent=5, format=training_data.CHUNK_FORMAT)
    (out / training_data.SETTINGS_FILE).write_text(json.dumps(settings))
    arguments = SMALL + ["--out", str(out), "--games", "5", "--chunk-games", "2"]
    assert training_data.main(arguments) == 1
    assert "holds a run of 3 games whose last chunk is short of 2 games" in capsys.readouterr().err
    assert json.loads((out / training_data.SETTINGS_FILE).read_text())["games"] == 3
    (out / training_data.SETTINGS_FILE).write_text("[3]")
    assert training_data.main(arguments) == 1
    assert "is not a settings file" in capsys.readouterr().err


def test_damaged_chunk_is_named(tmp_path, capsys):
    out = tmp_path / "data"
    (out / "chunks").mkdir(parents=True)
    (out / "chunks" / "chunk-00000.txt").write_text("1 2 50 search 12 -4\nrubbish\n")
    (out / "chunks" / "chunk-00001.txt").write_text("")
    settings = dict(games=2, seed=1, exact_empties=10, search_nodes=300, chunk_games=1, epsilon=training_data.EPSILON,
                    test_percent=5, format=training_data.CHUNK_FORMAT)
    (out / training_data.SETTINGS_FILE).write_text(json.dumps(settings))
    assert training_data.main(SMALL + ["--out", str(out)]) == 1
    assert "chunk-00000.txt line 2 is damaged ('rubbish')" in capsys.readouterr().err


def test_merge_only_fits_a_run_stopped_early_and_plays_nothing(tmp_path, capsys):
    out = tmp_path / "data"
    (out / "chunks").mkdir(parents=True)
    player, opponent, _ = random_positions(40, 8)
    lines = ["%x %x 30 search %d 2\n" % (int(p), int(o), 16 * i) for i, (p, o) in enumerate(zip(player, opponent))]
    (out / "chunks" / "chunk-00000.txt").write_text("".join(lines))  # one chunk of the run's two
    settings = dict(games=2, seed=1, exact_empties=10, search_nodes=300, chunk_games=1, epsilon=training_data.EPSILON,
                    test_percent=5, format=training_data.CHUNK_FORMAT)
    (out / training_data.SETTINGS_FILE).write_text(json.dumps(settings))
    assert training_data.main(SMALL + ["--out", str(out), "--merge-only"]) == 0
    assert "merged the 1 finished chunks; nothing played" in capsys.readouterr().out
    assert sorted(path.name for path in (out / "chunks").iterdir()) == ["chunk-00000.txt"]
    merged = [load_npz(out / name) for name in ("train.npz", "test.npz")]
    assert sum(len(data["score"]) for data in merged) == len(set(zip(*(a.tolist() for a in boards.canonical(
        player, opponent)))))
    # other settings are refused as for a run, and --fresh would throw the chunks away
    assert training_data.main(SMALL + ["--out", str(out), "--merge-only", "--seed", "2"]) == 1
    assert "seed 1 -> 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        training_data.main(SMALL + ["--out", str(out), "--merge-only", "--fresh"])
    assert "--fresh and --merge-only do not go together" in capsys.readouterr().err


def test_merge_keeps_exact_labels_and_drops_symmetric_twins(tmp_path):
    player, opponent, _ = random_positions(30, 6)
    mirrored = boards.mirror_horizontal(player), boards.mirror_horizontal(opponent)
    (tmp_path / "chunks").mkdir()
    lines = ["%x %x 30 search %d 2\n" % (int(p), int(o), 16 * i) for i, (p, o) in enumerate(zip(player, opponent))]
    lines += ["%x %x 30 exact %d 2\n" % (int(p), int(o), -i) for i, (p, o) in enumerate(zip(*mirrored))]
    (tmp_path / "chunks" / "chunk-00000.txt").write_text("".join(lines))
    distinct = len(set(zip(*(a.tolist() for a in boards.canonical(player, opponent)))))  # random games may meet
    summary = training_data.merge(tmp_path, 50)
    assert summary["positions"] == 60 and summary["unique"] == distinct == summary["exact"] > 20
    both = [load_npz(tmp_path / name) for name in ("train.npz", "test.npz")]
    assert all(data["exact"].all() for data in both) and sum(len(data["score"]) for data in both) == distinct
    assert 0 < len(both[1]["score"]) < distinct


def test_bad_values_are_refused(capsys):
    with pytest.raises(SystemExit):
        training_data.main(["--exact-empties", "30"])
    assert "must be 0 to 24, not 30" in capsys.readouterr().err


def test_held_out_positions_beyond_the_games_exact_empties_get_exact_labels(tmp_path, capsys, monkeypatch):
    """--exact-held-out solves held-out positions past where the games were solved (here 11-16 empties; 20-22
    in a real run): their labels are the plain solver's, kept in a file across runs, the training set untouched."""
    monkeypatch.setattr(training_data, "EXACT_HELD_OUT_EMPTIES", (11, 16))
    out = tmp_path / "data"
    arguments = SMALL + ["--test-percent", "50", "--out", str(out)]
    assert training_data.main(arguments) == 0
    before, train = load_npz(out / "test.npz"), load_npz(out / "train.npz")
    band = np.flatnonzero((before["empties"] >= 11) & (before["empties"] <= 16))
    assert len(band) >= 3 and not before["exact"][band].any()
    capsys.readouterr()

    assert training_data.main(arguments + ["--exact-held-out", "2"]) == 0
    out_text, err = capsys.readouterr()
    assert "solving 2 held-out positions of 11-16 empties exactly" in err and "2/2 solves" in err
    assert "held out: 2 positions of 11-16 empties labelled exactly (2 solved in this run)" in out_text
    after = load_npz(out / "test.npz")
    solved = np.flatnonzero(after["exact"] & ~before["exact"])
    assert len(solved) == 2 and set(solved) <= set(band)
    for i in solved:
        board = Board.from_position(position_text(int(after["player"][i]), int(after["opponent"][i])))
        assert solve(board)[0] == after["score"][i]
    untouched = np.setdiff1d(np.arange(len(before["score"])), solved)
    assert (after["score"][untouched] == before["score"][untouched]).all()
    assert (load_npz(out / "train.npz")["score"] == train["score"]).all()

    # the labels stay with the data: a merge without the option keeps them, more solves only the rest
    assert training_data.main(arguments) == 0
    assert "labelled exactly (0 solved in this run)" in capsys.readouterr()[0]
    assert (load_npz(out / "test.npz")["exact"] == after["exact"]).all()
    assert training_data.main(arguments + ["--exact-held-out", "3"]) == 0
    assert "held out: 3 positions of 11-16 empties labelled exactly (1 solved in this run)" in capsys.readouterr()[0]

    # a damaged line is named, and nothing is lost
    labels = out / training_data.EXACT_HELD_OUT_FILE
    labels.write_text(labels.read_text() + "12ab zz\n")
    assert training_data.main(arguments) == 1
    assert "exact-held-out.txt line 4 is damaged" in capsys.readouterr()[1]
    with pytest.raises(SystemExit):
        training_data.main(["--size", "6", "--exact-held-out", "5"])
    assert "--exact-held-out is for 8x8 runs" in capsys.readouterr()[1]
