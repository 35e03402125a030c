"""A pattern evaluation's sum with its table entries read from the weight file one by one.

While the solver works, the engine lets the evaluation's 20 KB phase buffer go so that the solver's code
has its room (player.engine.Engine.solver). A position evaluated then (a forced move answered in the
endgame) needs only one entry per pattern image: PatternEvaluator.evaluate reads those here, the same
score as from the buffer, without taking the block. A module of its own, so that its code is in the
heap only once an endgame has needed it.
"""


class EntriesInFile:
    """One phase's table entries read from the weight file as they are asked for (pattern_sum's `table`)."""

    def __init__(self, stream, at):
        self.stream = stream
        self.at = at
        self.entry = bytearray(1)

    def __getitem__(self, index):
        self.stream.seek(self.at + index)
        if self.stream.readinto(self.entry) != 1:
            raise ValueError("the evaluation file is truncated")
        return self.entry[0]


def pattern_sum_from_file(evaluator, phase):
    """evaluator.pattern_sum of its cells with `phase`'s entries read from its file."""
    with evaluator.open_again() as stream:
        return evaluator.pattern_sum(evaluator.cells, EntriesInFile(stream, evaluator.tables_at + phase * evaluator.table_bytes))
