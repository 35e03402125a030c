#!/usr/bin/env python3
"""Fit the computer player's evaluation weights from self-play games; writes firmware/player/eval*.bin.

    .venv/bin/python tools/train_evaluation.py            # all four files, a few minutes on 2 cores
    .venv/bin/python tools/train_evaluation.py --size 6 --anti --games 600

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
   mirror image have one pattern number (Kernel.edge_indices), so they share
   one value and the tables hold each pattern once.
4. The weights are rounded to the stored units (1/256 disc for features,
   1/8 disc for edges, stored + 128 in a byte) and written with a header the
   firmware checks.
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

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "firmware")]

from othello.board import Board  # noqa: E402
from othello.kernel import Kernel  # noqa: E402
from othello.kernel_tables import edge_number_count  # noqa: E402
from othello.variant import Variant  # noqa: E402
from player.evaluation import (  # noqa: E402
    EDGE_BUCKETS,
    EDGE_OFFSET,
    FEATURE_BUCKETS,
    FEATURE_COUNT,
    HEADER_SIZE,
    MAGIC,
    VERSION,
    WEIGHTS_PER_BUCKET,
    PatternEvaluator,
    edge_length,
    phase_table,
    weights_file,
)
from player.search import Searcher, TranspositionTable  # noqa: E402
from player.solver import solve_root  # noqa: E402

PLAYER_DIR = REPO / "firmware" / "player"


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
    rows = []
    for player, opponent, label in samples:
        kernel.set_root(player, opponent)
        kernel.features(0, out)
        empties = out[6]
        values = (out[0], out[1], out[2], out[3], out[4], out[5], empties & 1, 1)
        edges = (out[7], out[8], out[9], out[10])
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
    entries = edge_number_count(size)
    header = MAGIC + bytes((VERSION, edge_length(size), FEATURE_BUCKETS, WEIGHTS_PER_BUCKET)) + struct.pack("<I", entries)
    header += bytes(HEADER_SIZE - len(header))
    feature_words = []
    for bucket in weights:
        for value in bucket:
            feature_words.append(max(-32768, min(32767, int(round(value * 256)))))
    edge_bytes = bytearray()
    for table in edges:
        for index in range(entries):
            value = int(round(table[index] * 8))
            edge_bytes.append(max(-127, min(127, value)) + EDGE_OFFSET)
    data = header + struct.pack("<%dh" % len(feature_words), *feature_words) + bytes(edge_bytes)
    tmp = Path(str(path) + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)  # never leave a half-written file where the firmware reads it
    return len(data)


def train(size, anti, games, nodes, generations, seed, workers, output_dir):
    name = weights_file(size, anti)
    output = Path(output_dir) / name
    print("%s: %dx%d%s, %d games x %d generation(s), %d nodes a move" % (
        name, size, size, " anti" if anti else "", games, generations, nodes), file=sys.stderr)
    samples = []
    weights_path = None
    for generation in range(generations):
        samples.extend(self_play(size, anti, games, nodes, seed + generation, weights_path, workers))
        rows = extract(samples, size)
        weights, edges = fit(rows, edge_number_count(size))
        written = write_weights(output, size, weights, edges)
        weights_path = str(output)
        print("  wrote %s (%d bytes) from %d positions" % (output, written, len(rows)), file=sys.stderr)
    check = PatternEvaluator(size, anti, path=str(output))
    assert check.source == str(output)
    return output


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
