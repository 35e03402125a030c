"""Endgame puzzles: find the move that keeps the best result (player/puzzles.py holds the set).

The puzzle menu lists the levels of difficulty with how many are solved;
each opens the first puzzle of its level not solved yet. On the puzzle
screen the cursor and the keys are the game's; A on a legal move answers:
right or wrong, with the exact result of the move chosen and of the best
(WOF discs, as the solver counts them). Then A goes on to the next puzzle,
B back to the menu, another key shows the board and the solution line:
best play to the end, stepped through with the replay's keys (ui/records.py
step_through); A there brings the verdict back.

Progress is kept in puzzles.json: one character a puzzle, "0" not tried,
"1" tried and missed, "2" solved.
"""

from othello.board import PASS
from othello.game import Game
from othello.notation import counted, square_name
from othello.variant import BLACK
from player.puzzles import DIFFICULTIES, PuzzleError, difficulty_starts, read_puzzle
from ui import gfx, keys, sounds
from ui.cursor import moved, next_legal
from ui.font import BLACK_DISC, WHITE_DISC, draw_text, wrap
from ui.menu import Item, Menu, TextScreen
from ui.records import step_through
from ui.screen import Screen
from ui.store import PUZZLES

NOT_TRIED, MISSED, SOLVED = "0", "1", "2"


def load_progress(app, count):
    """The progress text for `count` puzzles (a damaged file is reported and started afresh)."""
    data, problem = app.store.load(PUZZLES)
    if problem:
        app.notify(problem + ": progress lost")
    text = data.get("s") if isinstance(data, dict) else None
    if not isinstance(text, str) or any(char not in (NOT_TRIED + MISSED + SOLVED) for char in text):
        if data is not None and not problem:
            app.notify(PUZZLES + " damaged: progress lost")
        text = ""
    return (text + NOT_TRIED * count)[:count]


def save_progress(app, progress):
    if not app.store.save(PUZZLES, {"s": progress}):
        app.report_save(False, "progress not saved")


def result_text(score):
    if score > 0:
        return "win by %d" % score
    if score < 0:
        return "loss by %d" % -score
    return "draw"


def puzzle_menu(app):
    try:
        starts = difficulty_starts()
    except (OSError, PuzzleError) as error:  # puzzles.bin missing or damaged on the flash
        return TextScreen(app, "Puzzles", ["No puzzles here:"] + wrap(str(error), 20)[:4])
    return PuzzleMenu(app, starts)


class PuzzleMenu(Menu):
    """A line for each difficulty with the puzzles solved; it reads the progress each time it shows."""

    def __init__(self, app, starts):
        self.starts = starts
        self.progress = NOT_TRIED * starts[-1]
        items = []
        for difficulty in range(len(DIFFICULTIES)):
            if starts[difficulty] < starts[difficulty + 1]:
                items.append(self.difficulty_item(difficulty))
        items.append(Item("Reset progress", self.reset))
        Menu.__init__(self, app, "Puzzles", items)

    def enter(self):
        self.progress = load_progress(self.app, self.starts[-1])

    def difficulty_item(self, difficulty):
        first, end = self.starts[difficulty], self.starts[difficulty + 1]

        def solved():
            return "%d/%d" % (self.progress[first:end].count(SOLVED), end - first)

        def open_level():
            index = self.progress.find(NOT_TRIED, first, end)
            if index < 0:
                index = self.progress.find(MISSED, first, end)
            self.app.push(PuzzleScreen(self.app, first if index < 0 else index, first, end))

        return Item(DIFFICULTIES[difficulty][0], open_level, solved)

    def reset(self):
        self.app.store.remove(PUZZLES)
        self.progress = NOT_TRIED * self.starts[-1]
        self.app.notify("Puzzle progress cleared")


class PuzzleScreen(Screen):
    """Puzzle `index` of the difficulty whose puzzles are first..end-1; A after an answer goes to the next."""

    def __init__(self, app, index, first, end):
        Screen.__init__(self, app)
        self.first = first
        self.end = end
        self.puzzle = None
        self.blink = gfx.Blink(app.device.ticks_ms(), app.ticks_diff)
        self.open(index)

    def open(self, index):
        try:
            self.puzzle, count = read_puzzle(index)
        except (OSError, PuzzleError, IndexError) as error:
            self.puzzle = None
            self.app.notify("Puzzle %d: %s" % (index + 1, error))
            return
        self.board = self.puzzle.board()
        self.view = gfx.BoardView(self.board.size)
        self.legal = self.board.legal_moves()
        self.cursor = self.board.legal_squares()[0]
        self.answer = None  # the square chosen, once answered
        self.show_verdict = False
        self.solution = None  # the solution line as a Game, once answered: stepped through with the keys
        self.progress = load_progress(self.app, count)
        self.app.dirty = True

    def enter(self):
        if self.puzzle is None:
            self.app.pop()

    def tick(self, now):
        if self.answer is None and self.blink.update(now):
            self.app.dirty = True

    def handle(self, action):
        app = self.app
        app.dirty = True
        self.blink.restart(app.device.ticks_ms())
        if action == keys.BACK:
            app.pop()
        elif self.answer is not None:
            if not self.show_verdict:
                if action == keys.OK:
                    self.show_verdict = True
                elif self.solution is not None:
                    step_through(self.solution, action)
            elif action == keys.OK:
                self.open(self.next_index())
                if self.puzzle is None:
                    app.pop()
            else:
                self.show_verdict = False
        elif action == keys.OK:
            self.choose(self.cursor)
        elif action in (keys.NEXT, keys.PREV):
            self.cursor = next_legal(self.cursor, self.board.legal_squares(), 1 if action == keys.NEXT else -1)
        else:
            self.cursor = moved(self.cursor, action, self.board.size)

    def choose(self, square):
        app = self.app
        reason = self.board.why_illegal(square)
        if reason is not None:
            app.sounds.play(sounds.ILLEGAL)
            app.notify(reason)
            return
        self.answer = square
        self.show_verdict = True
        self.solution = solution_game(self.board, self.puzzle.line)
        index = self.puzzle.index
        right = self.puzzle.is_answer(square)
        if right:
            mark = SOLVED
            app.sounds.play(sounds.WIN)
        else:
            mark = SOLVED if self.progress[index] == SOLVED else MISSED
            app.sounds.play(sounds.LOSE)
        if self.progress[index] != mark:
            self.progress = self.progress[:index] + mark + self.progress[index + 1:]
            save_progress(app, self.progress)

    def next_index(self):
        """The next puzzle of this difficulty not solved yet, after this one and round; else the next."""
        index = self.puzzle.index
        span = self.end - self.first
        for step in range(1, span + 1):
            candidate = self.first + (index - self.first + step) % span
            if self.progress[candidate] != SOLVED:
                return candidate
        return self.first + (index - self.first + 1) % span

    def draw(self, fb):
        board = self.board
        puzzle = self.puzzle
        stepped = self.solution is not None and len(self.solution.history)
        if self.answer is None:
            cursor = self.cursor if self.blink.shown else -1
            self.view.draw(fb, board, cursor, self.legal if self.app.settings["legal"] else 0)
        elif stepped:  # a move of the solution line, marked as the last move
            last = self.solution.last_move().square
            self.view.draw(fb, self.solution.board, -1, 0, last)
        else:  # the move chosen lit, the best moves crossed
            best = 0
            for square in puzzle.answers():
                best |= 1 << square
            self.view.draw(fb, board, self.answer, best & ~(1 << self.answer))
        x = self.view.right + 2
        y = 1
        for line in self.solution_lines() if stepped else self.panel_lines():
            draw_text(fb, x, y, line)
            y += gfx.ROW
        if self.answer is not None and self.show_verdict:
            gfx.dialog(fb, self.verdict_lines())

    def title(self):
        puzzle = self.puzzle
        name = DIFFICULTIES[0][0]
        for difficulty in DIFFICULTIES:
            if puzzle.empties() >= difficulty[1]:
                name = difficulty[0]
        return "#%d %s" % (puzzle.index - self.first + 1, name)

    def panel_lines(self):
        puzzle = self.puzzle
        mover = (BLACK_DISC if self.board.turn == BLACK else WHITE_DISC)
        return [
            self.title(),
            counted(puzzle.empties(), "empty", "empties"),
            mover + " to move",
            "Best move?",
            "" if puzzle.unique else "%d are best" % len(puzzle.answers()),
            {SOLVED: "solved", MISSED: "missed", NOT_TRIED: ""}[self.progress[puzzle.index]],
        ]

    def solution_lines(self):
        """The panel while the solution line is stepped through: the ply shown, and at the end the result."""
        game = self.solution
        move = game.last_move()
        disc = BLACK_DISC if move.colour == BLACK else WHITE_DISC
        lines = [self.title(), "Solution", "%d/%d" % (len(game.history), len(self.puzzle.line)),
                 disc + " " + ("pass" if move.square == PASS else square_name(move.square, game.board.size))]
        if game.is_over():
            result = game.result()
            lines.append("%d-%d" % (result.black, result.white))
        else:
            lines.append("")
        keymap = self.app.keymap
        return lines + [keymap.step_label() + " step", keymap.label(keys.OK) + ": verdict"]

    def verdict_lines(self):
        puzzle = self.puzzle
        size = self.board.size
        chosen = puzzle.score_of(self.answer)
        lines = ["Right!" if puzzle.is_answer(self.answer) else "Not the best",
                 "%s %s" % (square_name(self.answer, size), result_text(chosen))]
        if not puzzle.is_answer(self.answer):
            answers = puzzle.answers()
            lines.append("best %s %s" % (
                " ".join(square_name(square, size) for square in answers), result_text(puzzle.best())))
        keymap = self.app.keymap
        lines.append(keymap.label(keys.OK) + ": next puzzle")
        lines.append(keymap.step_label() + " solution" if self.solution is not None else "(no solution line)")
        return lines


def solution_game(board, line):
    """The solution line played from `board` in a Game, rewound to its start: the replay's keys step it.
    None if the line does not play (a damaged file)."""
    game = Game(board.variant, None, start=board.position())
    try:
        for square in line:
            if square == PASS:
                game.pass_turn()
            else:
                game.play(square)
    except ValueError:  # IllegalMoveError, or a move after the game's end
        return None
    while game.take_back() is not None:
        pass
    return game
