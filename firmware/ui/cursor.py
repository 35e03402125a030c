"""The board cursor's moves, for every screen with a cursor on the board (game, set-up, puzzles)."""

from ui import keys


def moved(cursor, action, size):
    """The square UP, DOWN, LEFT or RIGHT of `cursor` on a size x size board, wrapping round the edges."""
    row, column = divmod(cursor, size)
    if action == keys.UP:
        row = (row - 1) % size
    elif action == keys.DOWN:
        row = (row + 1) % size
    elif action == keys.LEFT:
        column = (column - 1) % size
    elif action == keys.RIGHT:
        column = (column + 1) % size
    return row * size + column


def next_legal(cursor, legal, step):
    """The next (step 1) or previous (-1) square of the sorted list `legal` after `cursor` in reading
    order, wrapping round; `cursor` itself when the list is empty."""
    if not legal:
        return cursor
    if step > 0:
        later = [square for square in legal if square > cursor]
        return later[0] if later else legal[0]
    earlier = [square for square in legal if square < cursor]
    return earlier[-1] if earlier else legal[-1]
