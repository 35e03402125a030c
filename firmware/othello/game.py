"""A game in progress: the board, its history with take back and redo, the clocks and the result.

Passes are recorded in the history as Move(PASS, ...) but left out of
transcripts, as RULES.md says; loading a transcript puts them back.
"""

from othello.board import PASS, Board, IllegalMoveError, Move
from othello.compat import const, ticks_diff, ticks_ms
from othello.notation import NotationError, format_transcript, split_transcript
from othello.scoring import END_AGREED, END_RESIGN, END_TIME, Result, time_loss_result
from othello.variant import BLACK, WHITE


class Clock:
    """Each player's remaining time, in milliseconds.

    Only the side to move's clock runs. A player's time is charged when they
    have placed their disc and flipped (or passed); RULES.md: a player stops
    their clock only after placing the disc and flipping.
    """

    def __init__(self, limit_ms, now):
        self.limit_ms = limit_ms
        self.remaining = [limit_ms, limit_ms]
        self.running = None
        self.since = now

    def start(self, colour, now):
        self.running = colour
        self.since = now

    def switch(self, now):
        """Charge the running player and start the other's clock."""
        if self.running is None:
            return
        self.remaining[self.running] -= ticks_diff(now, self.since)
        self.running = 1 - self.running
        self.since = now

    def stop(self, now):
        if self.running is not None:
            self.remaining[self.running] -= ticks_diff(now, self.since)
        self.running = None
        self.since = now

    def left_ms(self, colour, now):
        left = self.remaining[colour]
        if colour == self.running:
            left -= ticks_diff(now, self.since)
        return left

    def flagged(self, now):
        """The colour whose time has run out, or None."""
        if self.running is not None and self.left_ms(self.running, now) <= 0:
            return self.running
        return None

    def to_dict(self):
        return {"limit_ms": self.limit_ms, "remaining": list(self.remaining)}


_NO_SQUARE = const(255)  # History's square of a pass
_BLOCK_PLIES = const(16)  # History's records a block


class History:
    """The plies of a game, oldest first: a list of Moves that packs each into a few bytes.

    A Move object a ply would cost about 80 bytes of the Pico's heap (its
    attributes and its 64-bit mask, a big integer there), kept for the whole
    game and scattered between the blocks freed around it. Here a ply is a
    record of size + 2 bytes: the square (_NO_SQUARE for a pass), the colour,
    then the flipped mask, little-endian. The records are kept in blocks of
    _BLOCK_PLIES, so a long game never asks for a large free block: one buffer
    doubled as the game grew found none late in a game. Indexing and
    iterating give Move objects, made on request.
    """

    def __init__(self, squares):
        self.mask_bytes = (squares + 7) // 8
        self.record = self.mask_bytes + 2
        self.count = 0
        self.passes = 0
        self.blocks = []

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError("no ply %d in a history of %d" % (index, self.count))
        data = self.blocks[index // _BLOCK_PLIES]
        at = index % _BLOCK_PLIES * self.record
        square = data[at]
        flipped = int.from_bytes(data[at + 2:at + self.record], "little")
        return Move(PASS if square == _NO_SQUARE else square, flipped, data[at + 1])

    def __iter__(self):
        for index in range(self.count):
            yield self[index]

    def __eq__(self, other):
        return isinstance(other, (list, History)) and list(self) == list(other)

    def append(self, move):
        block = self.count // _BLOCK_PLIES
        if block == len(self.blocks):
            self.blocks.append(bytearray(self.record * _BLOCK_PLIES))
        data = self.blocks[block]
        at = self.count % _BLOCK_PLIES * self.record
        if move.square == PASS:
            data[at] = _NO_SQUARE
            self.passes += 1
        else:
            data[at] = move.square
        data[at + 1] = move.colour
        data[at + 2:at + self.record] = move.flipped.to_bytes(self.mask_bytes, "little")
        self.count += 1

    def pop(self):
        move = self[-1]
        self.count -= 1
        if move.square == PASS:
            self.passes -= 1
        return move

    def squares(self):
        """The squares played, PASS for a pass, oldest first (no Move objects made)."""
        found = []
        for index in range(self.count):
            square = self.blocks[index // _BLOCK_PLIES][index % _BLOCK_PLIES * self.record]
            found.append(PASS if square == _NO_SQUARE else square)
        return found


class Game:
    """The rules over time. `now` is a millisecond tick function (tests pass a fake one).

    `start` is a position text to play from instead of the variant's start
    (the handheld's set-up mode); the history then begins there.
    """

    def __init__(self, variant=None, clock_ms=None, now=ticks_ms, start=None):
        self.board = Board(variant) if start is None else Board.from_position(start, variant)
        self.variant = self.board.variant
        self.start = start
        self.now = now
        self.history = History(self.board.size * self.board.size)
        self.future = []  # squares (or PASS) that redo replays, next first
        self.clock = None
        self.ending = None  # the Result of a game ended off the board: a clock ran out, a resignation, a draw agreed
        if clock_ms:
            self.clock = Clock(clock_ms, now())
            self.clock.start(self.board.turn, now())

    # ----- playing --------------------------------------------------------

    def _check_running(self):
        if self.is_over():
            raise IllegalMoveError("the game is over")

    def play(self, square):
        """Play a square (number or name) for the side to move; raises IllegalMoveError, changing nothing."""
        self._check_running()
        move = self.board.play(square)
        self._after(move)
        self.future = []
        return move

    def pass_turn(self):
        self._check_running()
        move = self.board.pass_turn()
        self._after(move)
        self.future = []
        return move

    def _after(self, move):
        self.history.append(move)
        if self.clock is not None:
            now = self.now()
            self.clock.switch(now)
            if self.board.is_game_over():
                self.clock.stop(now)

    def take_back(self):
        """Undo the last ply (a move or a pass); returns it, or None at the start."""
        if not self.history or self.ending is not None:
            return None
        move = self.history.pop()
        self.board.undo(move)
        self.future.insert(0, move.square)
        if self.clock is not None:
            self.clock.start(self.board.turn, self.now())
        return move

    def redo(self):
        """Replay the ply that take_back removed; returns it, or None if there is none."""
        if not self.future or self.is_over():
            return None
        square = self.future.pop(0)
        move = self.board.pass_turn() if square == PASS else self.board.play(square)
        self._after(move)
        return move

    # ----- the clock ------------------------------------------------------

    def check_time(self):
        """Ends the game if the running clock has reached zero; returns the loser or None."""
        if self.clock is None or self.ending is not None:
            return None
        loser = self.clock.flagged(self.now())
        # The board's moves only once the clock has run out: the game screens ask every frame.
        if loser is None or self.board.is_game_over():
            return None
        self.clock.stop(self.now())
        b = self.board
        self.ending = time_loss_result(loser, b.count(BLACK), b.count(WHITE), b.empties())
        return loser

    def end(self, result):
        """End the game with `result` (a resignation or a draw, as the linked devices agreed: link/play.py)."""
        if self.clock is not None:
            self.clock.stop(self.now())
        self.ending = result

    # ----- state ----------------------------------------------------------

    @property
    def turn(self):
        return self.board.turn

    def is_over(self):
        return self.ending is not None or self.board.is_game_over()

    def result(self):
        if self.ending is not None:
            return self.ending
        return self.board.result()

    def last_move(self):
        history = self.history
        for index in range(len(history) - 1, -1, -1):
            move = history[index]
            if move.square != PASS:
                return move
        return None

    def moves_played(self):
        """The squares played so far, passes left out."""
        return [square for square in self.history.squares() if square != PASS]

    def move_count(self):
        """How many moves have been played, passes left out (the screens show it every frame: no list)."""
        return len(self.history) - self.history.passes

    def transcript(self):
        return format_transcript(self.moves_played(), self.board.size)

    def play_transcript(self, text):
        """Play a transcript from the current position, passing where the rules force it.

        A bad transcript raises NotationError (or IllegalMoveError) naming the move,
        and leaves the game as it was.
        """
        squares = split_transcript(text, self.board.size)
        if squares:
            self._check_running()
        trial = self.board.copy()
        moves = []
        for index, square in enumerate(squares):
            if trial.must_pass():
                moves.append(trial.pass_turn())
            reason = trial.why_illegal(square)
            if reason is not None:
                raise IllegalMoveError("move %d: %s" % (index + 1, reason))
            moves.append(trial.play(square))
        for move in moves:
            replayed = self.board.pass_turn() if move.square == PASS else self.board.play(move.square)
            self._after(replayed)
        self.future = []

    def to_dict(self):
        """What a save file needs to restore this game exactly."""
        data = {
            "variant": self.variant.to_dict(),
            "moves": self.history.squares(),
            "future": list(self.future),
        }
        if self.start is not None:
            data["start"] = self.start
        if self.clock is not None:
            data["clock"] = self.clock.to_dict()
            data["clock"]["running"] = self.clock.running
        ending = self.ending
        if ending is not None:
            if ending.reason == END_TIME:
                data["time_loss"] = 1 - ending.winner  # the colour whose clock ran out
            else:
                data["ending"] = [ending.winner, ending.black, ending.white, ending.reason]
        return data

    @classmethod
    def from_dict(cls, data, now=ticks_ms):
        """Inverse of to_dict; any inconsistency raises ValueError and builds nothing."""
        from othello.variant import Variant

        try:
            variant = Variant.from_dict(data["variant"])
            clock = data.get("clock")
            game = cls(variant, clock["limit_ms"] if clock else None, now, data.get("start"))
            for square in data["moves"]:
                if square == PASS:
                    game.pass_turn()
                else:
                    game.play(square)
            future = list(data.get("future", []))
            for square in future:
                if not isinstance(square, int):
                    raise ValueError("saved game has a bad redo square %r" % (square,))
            trial = game.board.copy()
            for square in future:  # redo must be able to replay them
                if square == PASS:
                    trial.pass_turn()
                else:
                    trial.play(square)
            game.future = future
            if clock:
                game.clock.remaining = [int(clock["remaining"][BLACK]), int(clock["remaining"][WHITE])]
                if game.board.is_game_over():
                    game.clock.stop(now())
                else:
                    game.clock.start(game.board.turn, now())
            loser = data.get("time_loss")
            if loser is not None:
                if not clock or loser != game.board.turn or game.board.is_game_over():
                    raise ValueError("saved game has a time loss that cannot have happened")
                game.clock.stop(now())
                b = game.board
                game.ending = time_loss_result(loser, b.count(BLACK), b.count(WHITE), b.empties())
            ending = data.get("ending")
            if ending is not None:
                winner, black, white, reason = ending
                b = game.board
                if game.is_over() or reason not in (END_RESIGN, END_AGREED) or black + white != b.count(BLACK) + b.count(WHITE) + b.empties():
                    raise ValueError("saved game has an ending that cannot have happened")
                game.end(Result(winner, black, white, reason))
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError("saved game is incomplete: %r" % (error,))
        except (IllegalMoveError, NotationError) as error:
            raise ValueError("saved game does not replay: %s" % (error,))
        return game
