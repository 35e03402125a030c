"""Finished games' records as the records list and the replay show them (the records are Session.record()'s)."""


def valid_record(record):
    """Whether `record` has the shape Session.record() gives it (a damaged file can hold anything)."""
    players = record.get("p")
    result = record.get("r")
    start = record.get("s")
    return (
        isinstance(record.get("v"), dict)
        and isinstance(record.get("t"), str)
        and (start is None or isinstance(start, str))
        and isinstance(players, list)
        and len(players) == 2
        and isinstance(players[0], str)
        and isinstance(players[1], str)
        and (result is None or (isinstance(result, list) and len(result) == 4 and isinstance(result[1], int) and isinstance(result[2], int)))
    )


def record_title(record):
    """'You-L3', with the board size when it is not 8x8."""
    size = record["v"].get("size", 8)
    prefix = "" if size == 8 else "%d " % size
    return "%s%s-%s" % (prefix, record["p"][0], record["p"][1])


def score_text(record):
    result = record["r"]
    if result is None:
        return "..."
    return "%d-%d" % (result[1], result[2])
