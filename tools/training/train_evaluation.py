#!/usr/bin/env python3
"""Fit the edge evaluation from self-play games: firmware/player/eval6*.bin and eval10*.bin.

    .venv/bin/python tools/training/train_evaluation.py            # all four files, a few minutes on 2 cores
    .venv/bin/python tools/training/train_evaluation.py --size 6 --anti --games 600

The edge evaluation is the scalar features and the four edges (one pattern,
its four images). 6x6 boards play with the one trained on 6x6 games; 10x10
boards with the one trained on 8x8 games, reading each edge's four squares
at either end (eval10*.bin). 8x8 boards have the richer pattern evaluation
of tools/training/training_fit.py.

How (docs/PLAYER.md, "Evaluation"):
1. Self-play. The player's own search (a fixed node budget per move, the
   current weights) plays games from the variant's start. The first plies are
   random and a few moves later on too, so the games cover many positions;
   from `--solve` empty squares on both sides play perfectly (the exact
   solver), so late positions get exact labels.
2. Labels. Every position is labelled with the game's final WOF score from
   the side to move's view (Anti-Othello: the anti score, as the solver
   counts it).
3. Fit. Least squares of the label on the evaluation's terms
   (player.evaluation.PatternEvaluator): per phase bucket, the feature
   weights are solved exactly (small normal equations) and the edge tables
   are fitted by regularised averaging of the residuals (edge configurations
   seen rarely stay near 0), alternating a few rounds. An edge and its
   mirror image have one entry (edge_number(), player/evaluation.py's
   numbering), so they share one value and a table holds each filling once.
4. The weights are rounded to the stored units (1/256 disc for features,
   1/8 disc for edges, stored + 128 in a byte) and written as
   player/evaluation.py reads them (tools/training/evaluation_file.py): 8 phases, the
   edge table of phase p fitted on the positions of phases 2 * (p // 2) and
   the one after.
With --generations 2 the games of the second round are played with the
first round's weights, and both rounds' games are used for the final fit.
"""

import argparse
import multiprocessing
import os
import random
import struct
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "firmware")]

from othello.board import Board  # noqa: E402
from othello.kernel import Kernel  # noqa: E402
from othello.kernel_tables import FEATURE_COUNT, edge_number_count, read_places  # noqa: E402
from othello.variant import Variant  # noqa: E402
from player.evaluation import SCALARS, PatternEvaluator, weights_file  # noqa: E402
from player.search import Searcher, TranspositionTable  # noqa: E402
from player.solver import solve_root  # noqa: E402

sys.path[:0] = [str(REPO / "tools")]
from training import evaluation_file  # noqa: E402

PLAYER_DIR = REPO / "firmware" / "player"
FEATURE_BUCKETS = 8  # phases of the feature weights
EDGE_BUCKETS = 4  # phases of the edge tables: two feature phases each
WEIGHTS_PER_BUCKET = SCALARS
EDGE_UNIT_SHIFT = 3  # edge entries in 1/8 disc
BOARD_FOR = {6: (6,), 8: (10,)}  # the boards each training size's weights are written for


def phase_table(squares, buckets):
    """bytearray: number of empty squares -> phase bucket (0 = the end of the game)."""
    table = bytearray(squares + 1)
    for empties in range(squares + 1):
        table[empties] = min(buckets - 1, empties * buckets // (squares - 3))
    return table


def edge_number(image, cells):
    """The table entry of an edge image (its squares: the near half, then the far half) in a position's
    cells, numbered as player/evaluation.py numbers a pattern's fillings."""
    half = len(image) // 2
    near = sum(cells[square] * 3 ** i for i, square in enumerate(image[:half]))
    far = sum(cells[square] * 3 ** i for i, square in enumerate(image[half:]))
    high, low = max(near, far), min(near, far)
    return high * (high + 1) // 2 + low


def edge_pattern(size):
    """The edge pattern of a size x size board: its four images, each read as its two halves from the corners."""
    places = read_places(size)
    half = len(places) // 2
    order = [places[i] for i in range(half)] + [places[len(places) - 1 - i] for i in range(half)]
    last_row = size * (size - 1)
    images = [[place for place in order], [last_row + place for place in order],
              [place * size for place in order], [place * size + size - 1 for place in order]]
    return evaluation_file.Pattern(0, half, images)


# ----- self-play -------------------------------------------------------------------


def play_game(job):
    """One self-play game; returns [(player discs, opponent discs, label), ...] for its positions."""
    size, anti, nodes, seed, weights_path, random_plies, epsilon, solve_empties = job
    rng = random.Random(seed)
    board = Board(Variant(size=size, anti=anti))
    searcher = Searcher(Kernel(board.geometry, 80), TranspositionTable(14), anti)
    searcher.evaluator = PatternEvaluator(size, anti, path=weights_path or "/nonexistent")
    seen = []
    plies = 0
    while not board.is_game_over():
        moves = board.legal_squares()
        if not moves:
            board.pass_turn()
            continue
        seen.append((board.player_discs(), board.opponent_discs(), board.turn))
        count = searcher.set_root(board.player_discs(), board.opponent_discs())
        if plies < random_plies or rng.random() < epsilon:
            square = rng.choice(moves)
        elif searcher.root_empties <= solve_empties:
            searcher.start()
            _, square = solve_root(searcher, count, -1000, 1000)
        else:
            searcher.start(nodes)
            searcher.iterate(60)
            square = searcher.best_square
        board.play(square)
        plies += 1
    result = board.result()
    samples = []
    for player, opponent, turn in seen:
        margin = result.margin if result.winner is not None else 0
        if result.winner is not None and result.winner != turn:
            margin = -margin
        samples.append((player, opponent, margin))
    return samples


def self_play(size, anti, games, nodes, seed, weights_path, workers):
    random_plies = 4 if size == 6 else 8
    solve_empties = 10 if size == 6 else 10
    jobs = [(size, anti, nodes, seed * 100003 + i, weights_path, random_plies, 0.01, solve_empties) for i in range(games)]
    samples = []
    started = time.time()
    with multiprocessing.Pool(workers) as pool:
        for done, game in enumerate(pool.imap_unordered(play_game, jobs, chunksize=4), 1):
            samples.extend(game)
            if done % 50 == 0 or done == games:
                print("  %d/%d games, %d positions, %.0f s" % (done, games, len(samples), time.time() - started),
                      file=sys.stderr)
    return samples


# ----- fitting ----------------------------------------------------------------------


def extract(samples, size):
    """Per sample: (feature bucket, edge bucket, 8 feature values, 4 edge pattern numbers, label)."""
    kernel = Kernel(Board(Variant(size=size)).geometry)
    squares = size * size
    feature_phase = phase_table(squares, FEATURE_BUCKETS)
    edge_phase = phase_table(squares, EDGE_BUCKETS)
    out = [0] * FEATURE_COUNT
    cells = bytearray(size * size)
    images = edge_pattern(size).images
    rows = []
    for player, opponent, label in samples:
        kernel.set_root(player, opponent)
        kernel.features(0, out)
        kernel.cells(0, cells)
        edges = [edge_number(image, cells) for image in images]
        empties = out[6]
        values = (out[0], out[1], out[2], out[3], out[4], out[5], empties & 1, 1)
        rows.append((feature_phase[empties], edge_phase[empties], values, edges, label))
    return rows


def solve_linear(matrix, vector):
    """Gaussian elimination with partial pivoting (the systems are 8 x 8)."""
    n = len(vector)
    a = [list(matrix[i]) + [vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col:
                factor = a[r][col] / a[col][col]
                if factor:
                    for c in range(col, n + 1):
                        a[r][c] -= factor * a[col][c]
    return [a[i][n] / a[i][i] if abs(a[i][i]) > 1e-12 else 0.0 for i in range(n)]


def fit(rows, entries, rounds=12, ridge=2.0, edge_ridge=6.0):
    weights = [[0.0] * WEIGHTS_PER_BUCKET for _ in range(FEATURE_BUCKETS)]
    edges = [[0.0] * entries for _ in range(EDGE_BUCKETS)]
    for round_number in range(rounds):
        # 1. feature weights per bucket, edges fixed
        normal = [[[0.0] * WEIGHTS_PER_BUCKET for _ in range(WEIGHTS_PER_BUCKET)] for _ in range(FEATURE_BUCKETS)]
        right = [[0.0] * WEIGHTS_PER_BUCKET for _ in range(FEATURE_BUCKETS)]
        for fb, eb, values, idx, label in rows:
            table = edges[eb]
            target = label - table[idx[0]] - table[idx[1]] - table[idx[2]] - table[idx[3]]
            m = normal[fb]
            r = right[fb]
            for i in range(WEIGHTS_PER_BUCKET):
                vi = values[i]
                if vi:
                    r[i] += vi * target
                    row = m[i]
                    for j in range(WEIGHTS_PER_BUCKET):
                        row[j] += vi * values[j]
        for b in range(FEATURE_BUCKETS):
            for i in range(WEIGHTS_PER_BUCKET - 1):  # the bias is not shrunk
                normal[b][i][i] += ridge
            weights[b] = solve_linear(normal[b], right[b])
        # 2. edge tables, feature weights fixed: damped averaging of the residual
        sums = [[0.0] * entries for _ in range(EDGE_BUCKETS)]
        counts = [[0] * entries for _ in range(EDGE_BUCKETS)]
        error = 0.0
        for fb, eb, values, idx, label in rows:
            w = weights[fb]
            table = edges[eb]
            prediction = sum(w[i] * values[i] for i in range(WEIGHTS_PER_BUCKET))
            prediction += table[idx[0]] + table[idx[1]] + table[idx[2]] + table[idx[3]]
            residual = label - prediction
            error += residual * residual
            s = sums[eb]
            c = counts[eb]
            for i in idx:
                s[i] += residual
                c[i] += 1
        for b in range(EDGE_BUCKETS):
            table = edges[b]
            s = sums[b]
            c = counts[b]
            for i in range(entries):
                # A damped Newton step on residual**2 + edge_ridge * value**2: the 4 edges of a
                # sample all move at once, so half a step keeps the rounds from overshooting.
                table[i] += 0.5 * (s[i] - edge_ridge * table[i]) / (c[i] + edge_ridge)
        print("  round %d: rms error %.2f discs" % (round_number + 1, (error / len(rows)) ** 0.5), file=sys.stderr)
    return weights, edges


def write_weights(path, size, weights, edges):
    """The edge evaluation as a weight file for a size x size board (feature phase p reads edge table p // 2)."""
    squares = size * size
    phase_of = phase_table(squares, FEATURE_BUCKETS)
    tables = [edges[phase // 2] for phase in range(FEATURE_BUCKETS)]
    return evaluation_file.write(path, size, phase_of, [edge_pattern(size)], weights, tables, EDGE_UNIT_SHIFT)


def train(size, anti, games, nodes, generations, seed, workers, output_dir):
    """Self-play and fit on size x size; the weights are written for the boards of BOARD_FOR[size]."""
    targets = [Path(output_dir) / weights_file(board, anti) for board in BOARD_FOR[size]]
    print("%s: %dx%d%s, %d games x %d generation(s), %d nodes a move" % (
        ", ".join(target.name for target in targets), size, size, " anti" if anti else "", games, generations, nodes),
        file=sys.stderr)
    # the weights of one generation play the next one's games, on the training board
    working = REPO / "build" / "edge_evaluation" / weights_file(size, anti)
    working.parent.mkdir(parents=True, exist_ok=True)
    samples = []
    weights_path = None
    for generation in range(generations):
        samples.extend(self_play(size, anti, games, nodes, seed + generation, weights_path, workers))
        rows = extract(samples, size)
        weights, edges = fit(rows, edge_number_count(size))
        write_weights(working, size, weights, edges)
        weights_path = str(working)
        print("  fitted on %d positions" % len(rows), file=sys.stderr)
    for board, target in zip(BOARD_FOR[size], targets):
        written = write_weights(target, board, weights, edges)
        check = PatternEvaluator(board, anti, path=str(target))
        assert check.source == str(target)
        print("  wrote %s (%d bytes)" % (target, written), file=sys.stderr)
    return targets


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, choices=(6, 8), help="board size (default: 6 and 8)")
    parser.add_argument("--anti", action="store_true", help="Anti-Othello only (default: both games)")
    parser.add_argument("--normal", action="store_true", help="normal Othello only")
    parser.add_argument("--games", type=int, help="self-play games per generation (default: 800 on 8x8, 600 on 6x6)")
    parser.add_argument("--nodes", type=int, default=150, help="search nodes per self-play move (default 150)")
    parser.add_argument("--generations", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--output-dir", default=str(PLAYER_DIR))
    args = parser.parse_args(argv)
    sizes = (args.size,) if args.size else (6, 8)
    games_kinds = (True,) if args.anti else (False,) if args.normal else (False, True)
    started = time.time()
    for size in sizes:
        for anti in games_kinds:
            games = args.games or (800 if size == 8 else 600)
            train(size, anti, games, args.nodes, args.generations, args.seed, args.workers, args.output_dir)
    print("done in %.0f s" % (time.time() - started), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
