"""Post-game review: what each move of a game cost against the best move.

    review = Review(variant, start, transcript)      # REVIEW_TIME_MS of device time a judgement
    while not review.done():
        review.step(should_stop)          # one move at a time: a screen stays responsive
    for entry in review.entries:          # one per ply, passes included
        entry.loss, entry.best, entry.exact
    text = review.encode()                # kept with the record: Review(..., cached=text) is instant

A move's loss is the score of the best move minus the score of the move
played, in discs from the mover's side (WOF scoring, Anti-Othello played to
win it, as the player scores). It is exact when the player's solver settles
both positions within the review's time (`exact`), otherwise the midgame
search's estimate, rounded to whole discs. Each position is judged once:
the position after a move is the one the next move is played from.

A judgement's budgets are nodes alone (review_level: the Pico's measured
rates times the time), never a clock: the same record gives the same review
however busy the machine is and however fast its clock runs. A book position
is judged by the book's own scores of its moves (the first best move where
two tie). The unix port runs the Pico's search code (the viper search and
solver), so `tools/othello review` there prints the device's numbers; under
CPython the plain solver counts its nodes its own way and may settle a
position the device does not, or not settle one it does.
"""

from othello.board import PASS
from othello.game import Game
from othello.notation import parse_square, square_name
from othello.scoring import disc_difference
from player import decide
from player.engine import MAX_TIME_MS, engine_for
from player.levels import DEVICE_SOLVE_NODES_PER_S, REVIEW_EXACT, SOLVE_SHARE, Level, hint_level

MISTAKE = 4  # discs lost from which a move counts as a mistake
WORST_LISTED = 3  # the summary lists each side's largest losses, at most this many
# The device time a judgement may take. The midgame search gets a hint's nodes, at most the top level's
# (about 2 s on the Pico at 125 MHz); the solver, from REVIEW_EXACT empties (a shorter --time: a hint's),
# SOLVE_SHARE of this time in nodes, 539,000 (docs/DEVICE_SPEED.md, Post-game review, says how many it
# settles).
REVIEW_TIME_MS = 10000
# 10x10, which the Pico searches without its viper code: nodes a second of its plain search and solver there
# (player/search.py: 64 nodes took 1.2 s on the Pico).
DEVICE_BIG_BOARD_NODES_PER_S = 52
SEED = 1  # a judgement plays no random move (no noise, the book's first best move); fixed all the same


def review_level(time_ms=REVIEW_TIME_MS, size=8):
    """The budgets of a judgement in `time_ms` of device time: a hint's midgame search and solver depth,
    and all of SOLVE_SHARE of the time for the solver (a hint stops at the top level's budget): a review
    can wait for an exact result where a move cannot. On a board bigger than 8x8 both budgets are the
    time at the Pico's rate there. No book in the level: judge() reads the book itself, once a position,
    for the scores of all its moves."""
    hint = hint_level(time_ms)
    nodes = hint.nodes
    solve_nodes = max(1, time_ms * SOLVE_SHARE * DEVICE_SOLVE_NODES_PER_S // 100000)
    if size > 8:
        nodes = max(1, time_ms * DEVICE_BIG_BOARD_NODES_PER_S // 1000)
        solve_nodes = max(1, nodes * SOLVE_SHARE // 100)
    exact = REVIEW_EXACT if time_ms >= REVIEW_TIME_MS else hint.exact
    return Level(0, "Review", time_ms, nodes, hint.max_depth, exact, solve_nodes, hint.style, hint.noise, None)


def judge(board, level, should_stop=None):
    """(best square, score, exact, book) for the side to move on `board` with `level`'s budgets; None if
    `should_stop` stopped it. `book` is the opening book's [(square, score)] for a position it holds (best
    first: the judgement is its first), else None. The budgets alone end the search: no deadline. A forced
    move or pass is judged by the position after it (the player answers it at once, with an estimate)."""
    if board.is_game_over():
        return None, disc_difference(board.result(), board.turn), True, None
    squares = board.legal_squares()
    if len(squares) <= 1:
        after = board.copy()
        if squares:
            after.play(squares[0])
        else:
            after.pass_turn()
        found = judge(after, level, should_stop)
        if found is None:
            return None
        return (squares[0] if squares else PASS), -found[1], found[2], None
    booked = book_moves(board)
    if booked:
        return booked[0][0], booked[0][1], False, booked
    stopped = [False]

    def stop():
        if should_stop is not None and should_stop():
            stopped[0] = True
        return stopped[0]

    decision = decide(board, level, stop, None, None, MAX_TIME_MS, SEED)  # MAX_TIME_MS: no deadline
    if stopped[0]:
        return None
    return decision.square, decision.score, decision.exact, None


def book_moves(board):
    """The opening book's [(square, score)] on `board`, best first (scores in the mover's discs); [] or None
    where the book does not hold it."""
    engine = engine_for(board.variant)
    book = engine.book_for(board)
    return None if book is None else book.moves_for(board, engine.kernel)


class Entry:
    """One ply of the review: `square` played by `colour`, `loss` discs against `best` (exact or estimated).

    A pass has `square` PASS, loss 0 and best PASS: it was forced.
    """

    __slots__ = ("ply", "square", "colour", "loss", "best", "exact")

    def __init__(self, ply, square, colour, loss, best, exact):
        self.ply = ply
        self.square = square
        self.colour = colour
        self.loss = loss
        self.best = best
        self.exact = exact

    def is_mistake(self, threshold=MISTAKE):
        return self.loss >= threshold


class Review:
    """The review of one game (a variant, a start position or None, a transcript) computed move by move.

    `cached` is a previous review's encode(): where it fits the game, its
    entries are taken as they are, and only the rest is computed.
    """

    def __init__(self, variant, start, transcript, time_ms=REVIEW_TIME_MS, cached=None):
        game = Game(variant, None, start=start)
        game.play_transcript(transcript)
        self.moves = [(move.square, move.colour) for move in game.history]
        while game.take_back() is not None:
            pass
        self.board = game.board  # the position before the next ply to review
        self.level = review_level(time_ms, game.board.size)
        self.entries = []
        self.known = None  # (best square, score, exact) of self.board, found as the last ply's reply
        if cached:
            for entry in decode(cached, self.moves, self.board.size):
                self.advance(entry)

    def done(self):
        return len(self.entries) == len(self.moves)

    def step(self, should_stop=None):
        """Review the next ply; returns its Entry, or None if `should_stop` stopped the search (try again)."""
        ply = len(self.entries)
        square, colour = self.moves[ply]
        board = self.board
        if square == PASS:
            return self.advance(Entry(ply, PASS, colour, 0, PASS, True))
        if len(board.legal_squares()) == 1:
            return self.advance(Entry(ply, square, colour, 0, square, True))
        best = self.known if self.known is not None else judge(board, self.level, should_stop)
        if best is None:
            return None
        best_square, best_score, exact, book = best
        reply = None
        booked = None
        if square != best_square and book:
            for move, score in book:
                if move == square:
                    booked = score
                    break
        if booked is not None:
            # a book position's moves are scored by one search: compared with each other, not with the
            # book's score of the position after the move (another search, another depth's parity)
            loss = max(0, round_discs(best_score - booked))
            if not loss:
                best_square = square
        elif square != best_square:
            after = board.copy()
            after.play(square)
            reply = judge(after, self.level, should_stop)
            if reply is None:
                return None
            loss = best_score + reply[1]  # the reply's score is the opponent's
            exact = exact and reply[2]
            if loss <= 0:  # as good as the best (a tie), or two estimates that disagree: the move played
                loss, best_square = 0, square
        else:
            loss = 0
        self.advance(Entry(ply, square, colour, loss if exact else round_discs(loss), best_square, exact))
        self.known = reply
        return self.entries[-1]

    def advance(self, entry):
        self.entries.append(entry)
        if entry.square == PASS:
            self.board.pass_turn()
        else:
            self.board.play(entry.square)
        self.known = None
        return entry

    def encode(self):
        """The entries as short text to keep with the record: 'f5~0,c3x2,d3~5,-' (the best move, x exact or
        ~ estimate, the loss; - a pass), one entry_text a ply."""
        size = self.board.size
        return ",".join(entry_text(entry, size) for entry in self.entries)

    def worst(self, colour, threshold=MISTAKE, count=WORST_LISTED):
        """`colour`'s mistakes (loss >= threshold), the largest first, at most `count`."""
        mistakes = [entry for entry in self.entries if entry.colour == colour and entry.is_mistake(threshold)]
        mistakes.sort(key=lambda entry: -entry.loss)
        return mistakes[:count]

    def total_loss(self, colour):
        return sum(entry.loss for entry in self.entries if entry.colour == colour)


def entry_text(entry, size):
    """One ply of encode()."""
    if entry.square == PASS:
        return "-"
    return "%s%s%d" % (square_name(entry.best, size), "x" if entry.exact else "~", entry.loss)


def round_discs(score):
    return int(score + 0.5) if score >= 0 else -int(-score + 0.5)


def decode(text, moves, size):
    """The entries of encode()'s `text` for the game's `moves` (square, colour); stops at the first that
    does not fit (a cache from another game or a damaged file: the rest is computed again)."""
    entries = []
    if not isinstance(text, str):
        return entries
    for ply, part in enumerate(text.split(",")):
        if ply >= len(moves):
            break
        square, colour = moves[ply]
        if part == "-" and square == PASS:
            entries.append(Entry(ply, PASS, colour, 0, PASS, True))
            continue
        mark = max(part.find("x"), part.find("~"))
        if square == PASS or mark < 2:
            break
        try:
            best = parse_square(part[:mark], size)
            loss = int(part[mark + 1:])
        except ValueError:
            break
        if loss < 0:
            break
        entries.append(Entry(ply, square, colour, loss, best, part[mark] == "x"))
    return entries
