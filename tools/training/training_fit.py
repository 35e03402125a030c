#!/usr/bin/env python3
"""Fit per-phase pattern tables to the training data and report the fit on the held-out positions.

    .venv/bin/python tools/training/training_fit.py --patterns pico            # tools/training/patterns/pico.json
    .venv/bin/python tools/training/training_fit.py --patterns my_set.json --data build/training --phase-empties 4
    make training-fit PATTERNS=edax

The model (Logistello's, Edax's and Egaroucid's): for each phase of the game
(a range of empty squares), a position is worth the sum of one table entry
for each image of each pattern, plus weighted scalar features (mobility,
parity) and a bias. A pattern is a list of squares; its images under the
board's 8 symmetries share one table, and where a symmetry maps a pattern
onto itself (an edge read backwards) the two readings share one entry, so a
table holds each filling once. Fitted by least squares with a ridge on the
table entries (a filling seen rarely stays near 0): preconditioned conjugate
gradients on the normal equations, each phase on its own positions and those
of --overlap empties either side.

The report (written to build/training/fit-<set>.txt and printed): the
tables' size (one byte an entry, in 1/8 disc as the edge tables today,
against the Pico's budget of 40 KB a phase) and per phase the RMS error in
discs on the held-out set, against exact scores and against deep-search
scores, with the rounded one-byte tables too, beside the shipped
evaluation's error on the same positions; then the same by kind of label
(exact or searched, by empties), as RMS and as mean absolute errors. A
weight file is written only with --write.
"""

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
TOOLS = HERE.parent
REPO = TOOLS.parent
sys.path[:0] = [str(TOOLS), str(REPO / "firmware")]

from training import evaluation_file  # noqa: E402
from training import training_boards as boards  # noqa: E402
from training import training_data  # noqa: E402
from cli.values import whole_number  # noqa: E402

PATTERN_DIR = HERE / "patterns"
BUDGET_BYTES = 40 * 1024  # tables held in RAM per phase on the Pico (issue 14)
ENTRY_LIMIT = 127  # a stored entry is a signed byte
# The scalar features a set may use, in the order of the device's weights (player/evaluation.py SCALARS; the
# bias, always there, is the last of them).
FEATURES = ("mobility", "opponent_mobility", "potential_mobility", "opponent_potential_mobility", "x_squares",
            "discs", "parity")
DEVICE_SCALARS = FEATURES + ("bias",)
MAX_PATTERN_SQUARES = 12  # 3**12 fillings: beyond that a table is far too big to fit anyway


class FitError(Exception):
    """Bad input (a pattern file, the data directory): said plainly."""


# ----- pattern sets ------------------------------------------------------------------------


class Pattern:
    """One pattern: its images (square lists) and raw base-3 index -> table entry."""

    def __init__(self, name, names, size=8):
        if not names or len(names) > MAX_PATTERN_SQUARES:
            raise FitError("pattern %s: give 1 to %d squares, not %d" % (name, MAX_PATTERN_SQUARES, len(names)))
        try:
            squares = [boards.square_number(text, size) for text in names]
        except (ValueError, IndexError, AttributeError):
            raise FitError("pattern %s: %r holds something that is not a square name of the %dx%d board" % (
                name, names, size, size))
        if len(set(squares)) != len(squares):
            raise FitError("pattern %s names a square twice" % name)
        self.name = name
        self.squares = squares
        self.images = []
        stabiliser = []
        for square_map in boards.symmetry_maps(size):
            image = [square_map[square] for square in squares]
            if set(image) == set(squares):
                stabiliser.append([squares.index(square) for square in image])
            if all(set(image) != set(other) for other in self.images):
                self.images.append(image)
        self.roles = roles(len(squares), stabiliser)
        if self.roles is None:
            self.entry, self.entries = fold(len(squares), stabiliser)
        else:
            self.entry, self.entries = pair_numbering(len(squares), self.roles)


def roles(length, permutations):
    """(fixed, first, second) places of a pattern that at most one symmetry besides the identity maps onto itself.

    That symmetry leaves the `fixed` places where they are and swaps each place of `first` with the place of
    `second` at the same position (first[i] < second[i]). None for a pattern with more symmetries.
    """
    others = []
    for permutation in permutations:
        if permutation != list(range(length)) and permutation not in others:
            others.append(permutation)
    if len(others) > 1:
        return None
    swap = others[0] if others else list(range(length))
    fixed = [place for place in range(length) if swap[place] == place]
    first = [place for place in range(length) if swap[place] > place]
    return fixed, first, [swap[place] for place in first]


def fold(length, permutations):
    """(raw index -> entry number, entry count): fillings a symmetry of the pattern's squares swaps share one."""
    count = 3 ** length
    digits = np.zeros((count, length), dtype=np.int64)
    value = np.arange(count)
    for position in range(length - 1, -1, -1):
        digits[:, position] = value % 3
        value //= 3
    powers = 3 ** np.arange(length - 1, -1, -1)
    smallest = np.full(count, count)
    for permutation in permutations:
        smallest = np.minimum(smallest, digits[:, permutation] @ powers)
    _, entry = np.unique(smallest, return_inverse=True)
    return entry.astype(np.int32), int(entry.max()) + 1


def pair_numbering(length, places):
    """(raw index -> entry number, entry count) as the device numbers a filling (player/evaluation.py).

    A group of places reads as a base-3 number, its first place the least significant. A pattern whose
    symmetry swaps `first` and `second` (an edge read backwards) is numbered by the value f of its fixed
    places and the unordered pair of values {a, b} of its two groups: with H = 3**len(first), high the larger
    and low the smaller of a and b, f * H * (H + 1) // 2 + high * (high + 1) // 2 + low; both readings get the
    same number and every other filling another. Without such a symmetry the number is f (every place fixed).
    """
    fixed, first, second = places
    count = 3 ** length
    digits = np.zeros((count, length), dtype=np.int64)
    value = np.arange(count)
    for position in range(length - 1, -1, -1):  # raw indices: the first place most significant (pattern_index)
        digits[:, position] = value % 3
        value //= 3

    def number(group):
        return digits[:, group] @ (3 ** np.arange(len(group))) if group else np.zeros(count, dtype=np.int64)

    a, b = number(first), number(second)
    high, low = np.maximum(a, b), np.minimum(a, b)
    half = 3 ** len(first)
    pairs = half * (half + 1) // 2
    entry = number(fixed) * pairs + high * (high + 1) // 2 + low
    return entry.astype(np.int32), 3 ** len(fixed) * pairs


class PatternSet:
    def __init__(self, path):
        try:
            spec = json.loads(Path(path).read_text())
        except OSError as error:
            raise FitError("cannot read the pattern set %s: %s" % (path, error.strerror))
        except ValueError as error:
            raise FitError("%s is not valid JSON: %s" % (path, error))
        if not isinstance(spec, dict) or not isinstance(spec.get("patterns"), dict) or not spec["patterns"]:
            raise FitError('%s: give {"patterns": {"name": ["a1", "b1", ...], ...}, "features": [...]}' % path)
        self.name = Path(path).stem
        self.description = spec.get("description", "")
        self.size = spec.get("size", 8)
        if self.size not in (6, 8):
            raise FitError("%s: the board size must be 6 or 8, not %r" % (path, self.size))
        self.patterns = [Pattern(name, names, self.size) for name, names in spec["patterns"].items()]
        self.features = list(spec.get("features", []))
        unknown = [name for name in self.features if name not in FEATURES]
        if unknown:
            raise FitError("%s: unknown feature(s) %s; known: %s" % (path, ", ".join(unknown), ", ".join(FEATURES)))
        self.offsets = np.cumsum([0] + [p.entries for p in self.patterns])
        self.table_entries = int(self.offsets[-1])

    def columns(self, player, opponent):
        """int32 (positions x images): each image's table entry, numbered across the set's tables."""
        columns = []
        for pattern, offset in zip(self.patterns, self.offsets):
            for image in pattern.images:
                columns.append(pattern.entry[boards.pattern_index(player, opponent, image)] + offset)
        return np.stack(columns, axis=1)

    def scalars(self, player, opponent, empties):
        """float (positions x features + 1): the scalar features, then 1 for the bias."""
        compute = {
            "mobility": lambda: boards.popcount(boards.legal_moves(player, opponent, self.size)),
            "opponent_mobility": lambda: boards.popcount(boards.legal_moves(opponent, player, self.size)),
            "potential_mobility": lambda: boards.potential_mobility(player, opponent, self.size),
            "opponent_potential_mobility": lambda: boards.potential_mobility(opponent, player, self.size),
            "x_squares": lambda: boards.x_squares(player, opponent, self.size),
            "discs": lambda: boards.popcount(player) - boards.popcount(opponent),
            "parity": lambda: empties.astype(np.int32) & 1,
        }
        values = [compute[name]() for name in self.features]
        values.append(np.ones(len(player), dtype=np.int32))
        return np.stack(values, axis=1).astype(np.float64)


def pattern_file(text):
    """--patterns: a file, or the name of one in tools/training/patterns/."""
    path = Path(text)
    if path.suffix != ".json":
        path = PATTERN_DIR / (text + ".json")
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in PATTERN_DIR.glob("*.json")))
        raise argparse.ArgumentTypeError("no pattern set %s (tools/training/patterns/ has: %s)" % (text, known))
    return path


# ----- the fit ----------------------------------------------------------------------------


class Design:
    """A phase's positions as the sparse table columns and the dense scalar columns of the linear model."""

    def __init__(self, columns, scalars, entries):
        self.columns = columns
        self.scalars = scalars
        self.entries = entries

    def times(self, x):
        return x[:self.entries][self.columns].sum(axis=1) + self.scalars @ x[self.entries:]

    def transposed_times(self, r):
        images = self.columns.shape[1]
        tables = np.bincount(self.columns.ravel(), weights=np.repeat(r, images), minlength=self.entries)
        return np.concatenate([tables, self.scalars.T @ r])

    def diagonal(self):
        counts = np.bincount(self.columns.ravel(), minlength=self.entries).astype(np.float64)
        return np.concatenate([counts, (self.scalars ** 2).sum(axis=0)])


def least_squares(design, target, ridge, iterations):
    """x minimising |design x - target|^2 + ridge |table part of x|^2 (Jacobi-preconditioned CG)."""
    penalty = np.zeros(design.entries + design.scalars.shape[1])
    penalty[:design.entries] = ridge
    preconditioner = 1.0 / (design.diagonal() + penalty + 1e-9)

    def normal(x):
        return design.transposed_times(design.times(x)) + penalty * x

    x = np.zeros_like(penalty)
    residual = design.transposed_times(target)
    z = preconditioner * residual
    direction = z.copy()
    rz = residual @ z
    for _ in range(iterations):
        product = normal(direction)
        step = rz / max(direction @ product, 1e-30)
        x += step * direction
        residual -= step * product
        z = preconditioner * residual
        rz_next = residual @ z
        if rz_next < 1e-12 * max(1.0, abs(rz)):
            break
        direction = z + (rz_next / rz) * direction
        rz = rz_next
    return x


def quantised(x, entries, unit_shift):
    """The tables as the device stores them (1/2**unit_shift disc, a signed byte); scalar weights kept."""
    q = x.copy()
    units = 1 << unit_shift
    q[:entries] = np.clip(np.round(x[:entries] * units), -ENTRY_LIMIT, ENTRY_LIMIT) / units
    return q


def phases(width, size=8):
    """[(first empties, last empties), ...] of phases `width` empty squares wide from the end of the game;
    the last one, from the start, takes what is left over up to the start's empty squares."""
    start = size * size - 4
    count = max(1, (start + 1) // width)
    return [(i * width, start if i == count - 1 else (i + 1) * width - 1) for i in range(count)]


def load(data_dir, name):
    path = Path(data_dir) / (name + ".npz")
    try:
        with np.load(path) as data:
            found = {key: data[key] for key in ("player", "opponent", "empties", "score", "exact")}
            found["result"] = data["result"] if "result" in data.files else found["score"]
            return found
    except FileNotFoundError:
        raise FitError("%s not found: make the data first (make training-data, or tools/training/training_data.py)" % path)
    except (ValueError, KeyError, OSError) as error:
        raise FitError("%s is not training data (%s): make it again with tools/training/training_data.py" % (path, error))


def shipped_evaluation(player, opponent, path=None, anti=False, size=8):
    """The scores (discs) of positions by a weight file (default: the shipped one): the yardstick of the fit."""
    from othello.geometry import geometry
    from othello.kernel import Kernel
    from player.evaluation import DISC, PatternEvaluator

    kernel = Kernel(geometry(size), 4)
    try:
        evaluator = PatternEvaluator(size, anti, path=None if path is None else str(path))
    except (OSError, ValueError) as error:
        raise FitError("the yardstick's weights cannot be read: %s" % error)
    scores = np.zeros(len(player))
    for i in range(len(player)):
        kernel.set_root(int(player[i]), int(opponent[i]))
        scores[i] = evaluator.evaluate(kernel, 0) / DISC
    return scores


def rms(errors):
    return float(np.sqrt(np.mean(errors ** 2))) if len(errors) else float("nan")


def mean_absolute(errors):
    """The mean absolute error: the other measure evaluations are compared by (an RMS error weighs the big
    misses more, so it is never the smaller of the two)."""
    return float(np.mean(np.abs(errors))) if len(errors) else float("nan")


def training_labels(data, result_weight):
    """What the fit learns: exact scores where there are, else the search's score blended with the game's result."""
    blended = (1 - result_weight) * data["score"] + result_weight * data["result"]
    return np.where(data["exact"], data["score"], blended).astype(np.float64)


def fit(pattern_set, train, test, width, overlap, ridge, iterations, progress=sys.stderr, result_weight=0.0,
        unit_shift=3, baseline=None, anti=False):
    """Fit every phase; returns a list of per-phase result dicts and the held-out predictions.

    The predictions (the fit's, the rounded tables', the shipped evaluation's) are arrays over the
    held-out positions, NaN where a phase had no training positions.
    """
    predictions = {name: np.full(len(test["score"]), np.nan) for name in ("fit", "q", "shipped")}
    sets = {}
    for name, data in (("train", train), ("test", test)):
        sets[name] = (pattern_set.columns(data["player"], data["opponent"]),
                      pattern_set.scalars(data["player"], data["opponent"], data["empties"]))
    results = []
    for first, last in phases(width, pattern_set.size):
        empties = train["empties"]
        rows = (empties >= first - overlap) & (empties <= last + overlap)
        own = (empties >= first) & (empties <= last)
        test_rows = (test["empties"] >= first) & (test["empties"] <= last)
        result = {"empties": (first, last), "train": int(own.sum()), "test": int(test_rows.sum()),
                  "test_exact": int((test_rows & test["exact"]).sum())}
        if rows.sum() == 0:
            results.append(result)
            continue
        started = time.monotonic()
        design = Design(sets["train"][0][rows], sets["train"][1][rows], pattern_set.table_entries)
        x = least_squares(design, training_labels(train, result_weight)[rows], ridge, iterations)
        result["train_rms"] = rms(Design(sets["train"][0][own], sets["train"][1][own], design.entries).times(x)
                                  - train["score"][own])
        held = Design(sets["test"][0][test_rows], sets["test"][1][test_rows], design.entries)
        labels = test["score"][test_rows]
        exact = test["exact"][test_rows]
        shipped = shipped_evaluation(test["player"][test_rows], test["opponent"][test_rows], baseline, anti,
                                     pattern_set.size)
        predictions["shipped"][test_rows] = shipped
        result["model"] = x
        for label, name, model in (("", "fit", x), ("q_", "q", quantised(x, design.entries, unit_shift))):
            predicted = held.times(model)
            predictions[name][test_rows] = predicted
            errors = predicted - labels
            result[label + "rms_exact"] = rms(errors[exact])
            result[label + "rms_search"] = rms(errors[~exact])
        result["shipped_rms_exact"] = rms(shipped[exact] - labels[exact])
        result["shipped_rms_search"] = rms(shipped[~exact] - labels[~exact])
        result["spread"] = float(np.std(labels)) if len(labels) else float("nan")
        result["scalars"] = [float(v) for v in x[design.entries:]]
        results.append(result)
        progress.write("phase %2d-%2d empties: %d positions, %.1f s\n" % (
            first, last, int(rows.sum()), time.monotonic() - started))
    return results, predictions


# The bands issue 14 asks about: exact labels where the solver reaches (20-24 empties), search labels before.
BANDS = (("exact labels, 20-24 empties", True, 20, 24), ("exact labels, 0-19 empties", True, 0, 19),
         ("search labels, 25-60 empties", False, 25, 60), ("search labels, 0-24 empties", False, 0, 24))


def band_rows(test, predictions):
    """[name, count, RMS error of the fit, of q, of the shipped evaluation, then their mean absolute errors]
    for each of BANDS."""
    rows = []
    for name, exact, first, last in BANDS:
        chosen = (test["exact"] == exact) & (test["empties"] >= first) & (test["empties"] <= last)
        chosen &= ~np.isnan(predictions["fit"])
        labels = test["score"][chosen]
        misses = [predictions[key][chosen] - labels for key in ("fit", "q", "shipped")]
        rows.append([name, int(chosen.sum())] + [rms(miss) for miss in misses]
                    + [mean_absolute(miss) for miss in misses])
    return rows


def report(pattern_set, results, predictions, train, test, settings, seconds):
    lines = ["# Fit of pattern set %s" % pattern_set.name, ""]
    if pattern_set.description:
        lines += [pattern_set.description, ""]
    lines.append("| pattern | squares | images | table entries (bytes) |")
    lines.append("|---|---|---|---|")
    for pattern in pattern_set.patterns:
        lines.append("| %s | %d | %d | %d |" % (
            pattern.name, len(pattern.squares), len(pattern.images), pattern.entries))
    size = pattern_set.table_entries
    verdict = "within the Pico's budget of %d bytes" % BUDGET_BYTES if size <= BUDGET_BYTES else (
        "OVER the Pico's budget of %d bytes by %d" % (BUDGET_BYTES, size - BUDGET_BYTES))
    lines += ["", "Tables: %d bytes a phase (one byte an entry), %s; %d phases: "
              "%d bytes in flash. Scalar features: %s." % (
                  size, verdict, len(results), size * len(results),
                  ", ".join(pattern_set.features) or "none"), ""]
    lines.append("Data: %d training and %d held-out positions (%d of them exact); %s; fitted in %.0f s." % (
        len(train["score"]), len(test["score"]), int(test["exact"].sum()),
        ", ".join("%s %s" % item for item in sorted(settings.items())), seconds))
    lines += ["", "RMS error in discs on the held-out positions (q: with the tables rounded to one byte; shipped: "
              "today's evaluation; spread: the labels' standard deviation):", "",
              "| empties | train | held out (exact) | vs exact | q | shipped | vs search | q | shipped | spread |",
              "|---|---|---|---|---|---|---|---|---|---|"]

    def cell(result, key):
        value = result.get(key)
        return "-" if value is None or value != value else "%.2f" % value

    for result in results:
        lines.append("| %d-%d | %d | %d (%d) | %s | %s | %s | %s | %s | %s | %s |" % (
            result["empties"][0], result["empties"][1], result["train"], result["test"], result["test_exact"],
            cell(result, "rms_exact"), cell(result, "q_rms_exact"), cell(result, "shipped_rms_exact"),
            cell(result, "rms_search"), cell(result, "q_rms_search"), cell(result, "shipped_rms_search"),
            cell(result, "spread")))
    lines += ["", "By kind of label (error in discs on the held-out positions: RMS, then mean absolute):", "",
              "| held-out positions | count | fit | q | shipped | fit, mean absolute | q | shipped |",
              "|---|---|---|---|---|---|---|---|"]
    for name, count, *errors in band_rows(test, predictions):
        lines.append("| %s | %d | %s |" % (name, count, " | ".join(
            "-" if value != value else "%.2f" % value for value in errors)))
    lines += ["", "Scalar weights per phase (discs per unit): %s, bias:" % ", ".join(pattern_set.features), ""]
    for result in results:
        if "scalars" in result:
            lines.append("- %d-%d empties: %s" % (result["empties"][0], result["empties"][1],
                                                  ", ".join("%+.3f" % value for value in result["scalars"])))
    return "\n".join(lines) + "\n"


def phase_map(width, size=8):
    """bytearray: the phase of each number of empty squares, for the device (phases(width, size)); more
    empty squares than a game starts with belong to the last phase."""
    found = bytearray(size * size + 1)
    spans = phases(width, size)
    for phase, (first, last) in enumerate(spans):
        for empties in range(first, last + 1):
            found[empties] = phase
    for empties in range(spans[-1][1] + 1, size * size + 1):
        found[empties] = len(spans) - 1
    return found


def device_patterns(pattern_set):
    """The set's patterns as the device reads them (tools/training/evaluation_file.py), or FitError if one cannot be."""
    found = []
    for pattern in pattern_set.patterns:
        if pattern.roles is None:
            raise FitError("pattern %s has more than one symmetry onto itself: the device cannot number it" %
                           pattern.name)
        fixed, first, second = pattern.roles
        order = fixed + first + second
        found.append(evaluation_file.Pattern(len(fixed), len(first),
                                              [[image[place] for place in order] for image in pattern.images]))
    return found


def write_weights(path, pattern_set, results, width, unit_shift):
    """The fitted phases as a weight file (firmware/player/evaluation.py); returns its length in bytes."""
    entries = pattern_set.table_entries
    weights, tables = [], []
    for result in results:
        if "model" not in result:
            raise FitError("phase %d-%d empties has no training positions: nothing to write" % result["empties"])
        x = result["model"]
        scalars = dict(zip(pattern_set.features + ["bias"], x[entries:]))
        weights.append([scalars.get(name, 0.0) for name in DEVICE_SCALARS])
        tables.append(x[:entries])
    return evaluation_file.write(path, pattern_set.size, phase_map(width, pattern_set.size),
                                 device_patterns(pattern_set), weights, tables, unit_shift)


def fraction(text):
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("must be a number from 0 to 1, not %s" % text)
    return value


def ridge_value(text):
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError("must be a finite number of at least 0, not %s" % text)
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--patterns", type=pattern_file, default=PATTERN_DIR / "pico.json",
                        help="pattern set: a name in tools/training/patterns/ (pico, edax, edges) or a JSON file")
    parser.add_argument("--anti", action="store_true",
                        help="Anti-Othello data (the yardstick is then the shipped Anti-Othello weights)")
    parser.add_argument("--data", type=Path, help="data directory (default build/training, with -6x6 for a 6x6 "
                        "pattern set and -anti for Anti-Othello: where tools/training/training_data.py writes them)")
    parser.add_argument("--phase-empties", type=whole_number(1, 61), default=6,
                        help="empty squares a phase spans (default 6: 10 phases)")
    parser.add_argument("--overlap", type=whole_number(0, 10), default=2,
                        help="a phase also learns from positions this many empties either side (default 2)")
    parser.add_argument("--ridge", type=ridge_value, default=5.0, help="ridge on the table entries (default 5)")
    parser.add_argument("--iterations", type=whole_number(1, 10000), default=300,
                        help="conjugate-gradient steps a phase at most (default 300)")
    parser.add_argument("--result-weight", type=fraction, default=0.0,
                        help="weight of the game's result against the search's score in a label (0 to 1, default 0)")
    parser.add_argument("--unit-shift", type=whole_number(0, 6), default=3,
                        help="a table entry is stored in 1/2**N disc (default 3: 1/8 disc, up to 15.9 discs)")
    parser.add_argument("--baseline", type=Path,
                        help="the weight file to compare with (default the shipped eval8.bin, or eval8a.bin)")
    parser.add_argument("--report", type=Path, help="report file (default DATA/fit-<set>.txt)")
    parser.add_argument("--write", type=Path, metavar="FILE",
                        help="write the fitted evaluation as a weight file (firmware/player/eval8.bin to ship it)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        pattern_set = PatternSet(args.patterns)
        data = args.data or training_data.data_directory(pattern_set.size, args.anti)
        train, test = load(data, "train"), load(data, "test")
        if args.write:
            device_patterns(pattern_set)  # refused before the fit, not after it
        results, predictions = fit(pattern_set, train, test, args.phase_empties, args.overlap, args.ridge,
                                   args.iterations, result_weight=args.result_weight, unit_shift=args.unit_shift,
                                   baseline=args.baseline, anti=args.anti)
        if args.write:
            written = write_weights(args.write, pattern_set, results, args.phase_empties, args.unit_shift)
            sys.stderr.write("wrote %s (%d bytes)\n" % (args.write, written))
    except FitError as error:
        sys.stderr.write("training_fit: %s\n" % error)
        return 1
    settings = {"phase-empties": args.phase_empties, "overlap": args.overlap, "ridge": args.ridge,
                "result-weight": args.result_weight, "unit-shift": args.unit_shift}
    text = report(pattern_set, results, predictions, train, test, settings, time.monotonic() - started)
    target = args.report or data / ("fit-%s.txt" % pattern_set.name)
    target.write_text(text)
    sys.stdout.write(text)
    sys.stderr.write("report written to %s\n" % target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
