"""Finished games' records as the records list, the replay and the review show them (Session.record()'s).

A record: "v" the variant (Variant.to_dict), "s" the start position or None,
"t" the transcript, "r" the result [winner, black, white, reason] or None,
"p" the two players' labels, and "a" the review once one was made
(player/review.py's encode()).
"""

from othello.game import Game
from othello.variant import BLACK, WHITE, Variant
from ui import keys

REVIEW = "a"


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
    """The result as the player sees it: 'won 40-24' or 'lost 27-9' (your discs first) in a game against the
    computer, 'draw 32-32', else the winner and its score first ('P2 40-24'). The winner follows the
    variant's rule: in Anti-Othello fewer discs win."""
    result = record["r"]
    if result is None:
        return "..."
    winner, discs = result[0], (result[1], result[2])
    if winner not in (BLACK, WHITE):
        return "draw %d-%d" % discs
    players = record["p"]
    side = players.index("You") if "You" in players else winner
    verb = ("won " if side == winner else "lost ") if "You" in players else players[winner] + " "
    return verb + "%d-%d" % (discs[side], discs[1 - side])


def replayed(record, ticks_ms):
    """The record's game rewound to its start, to step through with take back / redo (the engine's own,
    so passes come back where they happened); None for a record that no longer replays."""
    try:
        game = Game(Variant.from_dict(record["v"]), None, ticks_ms, record["s"])
        game.play_transcript(record["t"])
    except (TypeError, ValueError):  # a bad variant, an illegal move
        return None
    while game.take_back() is not None:
        pass
    return game


def after_moves(record, moves, ticks_ms):
    """The record's game after its first `moves` moves (passes are not moves), or None if it does not
    replay."""
    game = replayed(record, ticks_ms)
    if game is None:
        return None
    while game.move_count() < moves and game.redo() is not None:
        pass
    return game


def step_through(game, action):
    """Step `game` as the replay keys say: RIGHT, NEXT or OK forward, LEFT or PREV back, UP to the start,
    DOWN to the end. Returns whether `action` was one of these."""
    if action in (keys.RIGHT, keys.NEXT, keys.OK):
        game.redo()
    elif action in (keys.LEFT, keys.PREV):
        game.take_back()
    elif action == keys.UP:
        while game.take_back() is not None:
            pass
    elif action == keys.DOWN:
        while game.redo() is not None:
            pass
    else:
        return False
    return True
