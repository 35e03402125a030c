"""Engine checks that run unchanged under CPython and both MicroPython builds.

test_engine_micropython.py runs main() under each interpreter and compares
the printed lines: `ok NAME` for each passed check, then `perft ...` counts
that it checks against the known values and the reference implementation.
Everything is inside functions: module-level loops once misbehaved on the
WASI build.
"""

from othello import BLACK, PASS, WHITE, Board, Game, IllegalMoveError, NotationError, Result, Variant
from othello import parse_square, square_name
from othello.geometry import squares_of
from othello.kernels import make_kernel
from othello.perft import children, perft


def sq(name, size=8):
    return parse_square(name, size)


def mask(names, size=8):
    bits = 0
    for name in names.split():
        bits |= 1 << sq(name, size)
    return bits


def names(bits, size=8):
    return sorted([square_name(s, size) for s in squares_of(bits)])


def setup(black, white, turn=BLACK, variant=None):
    board = Board(variant)
    board.set_discs(mask(black, board.size), mask(white, board.size), turn)
    return board


def raises(error_class, text, func, *args):
    """func(*args) must raise error_class with `text` in its message."""
    try:
        func(*args)
    except error_class as error:
        assert text in str(error), "%r not in %r" % (text, str(error))
        return
    raise AssertionError("no %s (%s)" % (error_class.__name__, text))


def check_rules():
    board = Board()
    assert [square_name(s) for s in board.legal_squares()] == ["d3", "c4", "f5", "e6"]
    move = board.play(sq("f5"))
    assert names(move.flipped) == ["e5"] and board.turn == WHITE
    # English sheet, figure 4: no skipping over your own disc
    board = setup("c7 f7", "b7 d7 e7")
    assert names(board.play(sq("a7")).flipped) == ["b7"]
    # figures 5-6: no chain reaction
    board = setup("d4 a5", "a3 a4 b4 c4")
    assert names(board.play(sq("a2")).flipped) == ["a3", "a4"] and names(board.white) == ["b4", "c4"]
    # all eight directions at once
    board = setup("b2 d2 f2 b4 f4 b6 d6 f6", "c3 d3 e3 c4 e4 c5 d5 e5")
    assert board.play(sq("d4")).flipped == mask("c3 d3 e3 c4 e4 c5 d5 e5")
    # no wrapping round the edges
    assert setup("a3", "h2").flips_for(sq("g2")) == 0
    assert setup("h1", "a2").flips_for(sq("b2")) == 0
    # Czech sheet: White's nine moves and the flips it names
    board = setup("c4 c5 d4 e3 e4 f5", "d3 d5 d6 e5 f6", WHITE)
    assert sorted([square_name(s) for s in board.legal_squares()]) == "b3 b4 b5 c3 e2 f3 f4 g5 g6".split()
    assert names(board.flips_for(sq("e2"))) == ["e3", "e4"]
    assert names(board.flips_for(sq("b3"))) == ["c4"]
    assert names(board.flips_for(sq("c3"))) == ["d4"]
    print("ok rules")


def check_pass_and_end():
    board = setup("a1", "b1", WHITE)
    assert board.must_pass() and not board.is_game_over()
    raises(IllegalMoveError, "must pass", board.play, sq("c1"))
    move = board.pass_turn()
    assert move.square == PASS and board.turn == BLACK
    board.play(sq("c1"))
    assert board.is_game_over() and board.result() == Result(BLACK, 64, 0)
    assert setup("a1", "h8").result() == Result(None, 32, 32)
    assert setup("a1 b1", "h8").result() == Result(BLACK, 63, 1)
    anti = Board(Variant(anti=True))
    anti.set_discs(mask("a1 b1"), mask("h8"), BLACK)
    assert anti.result() == Result(WHITE, 63, 1)
    raises(IllegalMoveError, "cannot pass", Board().pass_turn)
    print("ok pass_and_end")


def check_bad_input_changes_nothing():
    board = Board()
    board.play(sq("f5"))
    before = board.position()
    raises(IllegalMoveError, "d4 is occupied", board.play, sq("d4"))
    raises(IllegalMoveError, "a1 flips nothing", board.play, sq("a1"))
    raises(NotationError, "not a square name", board.play, "z1")
    raises(ValueError, "holds both colours", board.set_discs, 1, 1, BLACK)
    assert board.position() == before
    print("ok bad_input")


def check_notation():
    for size in (6, 8, 10):
        for square in range(size * size):
            assert parse_square(square_name(square, size), size) == square
    assert square_name(90, 10) == "a10" and parse_square("J10", 10) == 99
    start = "---------------------------OX------XO--------------------------- X"
    assert Board().position() == start and Board.from_position(start.lower()) == Board()
    raises(NotationError, "unexpected 'Z' at c2 (character 11)", Board.from_position, start[:10] + "Z" + start[11:])
    raises(NotationError, "side to move must be X or O", Board.from_position, start[:-1] + "Y")
    raises(NotationError, "36, 64 or 100 squares", Board.from_position, start[1:])
    game = Game()
    game.play_transcript("F5d6C3")
    assert game.transcript() == "f5d6c3"
    raises(NotationError, "move 3: 'z' at character 5", game.play_transcript, "d3c4z1")
    raises(IllegalMoveError, "move 2: a1 flips nothing", game.play_transcript, "d3a1")
    assert game.transcript() == "f5d6c3"
    hole = Board(Variant(black_hole=sq("c3")))
    assert Board.from_position(hole.position()).variant.black_hole == sq("c3")
    print("ok notation")


def check_game():
    game = Game()
    game.play_transcript("f5d6c3d3c4")
    end = game.board.position()
    for _ in range(5):
        game.take_back()
    assert game.board == Board() and game.take_back() is None
    for _ in range(5):
        game.redo()
    assert game.board.position() == end and game.redo() is None
    again = Game.from_dict(game.to_dict())
    assert again.board == game.board and again.transcript() == game.transcript()
    raises(ValueError, "does not replay", Game.from_dict, {"variant": {}, "moves": [0]})
    ticks = [0]
    clocked = Game(clock_ms=1000, now=lambda: ticks[0])
    clocked.play_transcript("f5d6c3d3c4")  # White to move, 3 discs to 6
    ticks[0] += 1001
    assert clocked.check_time() == WHITE
    assert clocked.result() == Result(BLACK, 61, 3, "time")
    print("ok game")


def check_variants():
    reversi = Game(Variant(start="empty"))
    assert sorted([square_name(s) for s in reversi.board.legal_squares()]) == ["d4", "d5", "e4", "e5"]
    reversi.play_transcript("d4e5e4d5")
    assert names(reversi.board.black) == ["d4", "e4"] and names(reversi.board.white) == ["d5", "e5"]
    assert [m.flipped for m in reversi.history] == [0, 0, 0, 0]
    parallel = Board(Variant(start="parallel"))
    assert parallel.key() == reversi.board.key()
    assert Board(Variant(first=WHITE)).turn == WHITE
    corners = Board(Variant(handicap=4, handicap_to=WHITE))
    assert names(corners.white) == ["a1", "a8", "d4", "e5", "h1", "h8"]
    hole = Board(Variant(black_hole=sq("c1")))
    hole.set_discs(mask("d1"), mask("b1"), BLACK)
    assert hole.flips_for(sq("a1")) == 0
    raises(IllegalMoveError, "black hole", hole.play, sq("c1"))
    big = setup("a1", "b2 c3 d4 e5 f6 g7 h8 i9", BLACK, Variant(size=10))
    assert names(big.play(sq("j10", 10)).flipped, 10) == sorted("b2 c3 d4 e5 f6 g7 h8 i9".split())
    check_history_of_big_masks()
    small = Board(Variant(size=6))
    assert sorted([square_name(s, 6) for s in small.legal_squares()]) == ["b3", "c2", "d5", "e4"]
    print("ok variants")


def check_history_of_big_masks():
    # the packed history keeps masks of 100 bits (big integers on the Pico) and gives them back whole
    game = Game(Variant(size=10))
    played = []
    while len(played) < 40 and not game.is_over():
        board = game.board
        played.append(game.pass_turn() if board.must_pass() else game.play(board.legal_squares()[-1]))
    assert list(game.history) == played and game.history[-1] == played[-1]
    assert max(move.flipped for move in played) >> 30  # some flips lie beyond a Pico small int
    while game.history:
        assert game.take_back() == played.pop()
    assert game.board == Board(Variant(size=10))


def check_kernel_and_children():
    board = Board()
    kernel = make_kernel(board.geometry, 4)
    kernel.set_root(board.player_discs(), board.opponent_discs())
    n = kernel.generate(0)
    assert [kernel.move_list[i] for i in range(n)] == board.legal_squares()
    below = children(board.geometry, board.player_discs(), board.opponent_discs())
    assert [c[0] for c in below] == board.legal_squares()
    assert sum([perft(board.geometry, p, o, 3) for _, p, o in below]) == 244
    print("ok kernel")


def print_perfts(depth):
    """perft counts for the test to check: the start to `depth`, and other boards a little less deep."""
    cases = (
        ("8x8", Variant(), depth),
        ("6x6", Variant(size=6), depth),
        ("10x10", Variant(size=10), depth - 2),
        ("hole", Variant(black_hole=18), depth - 1),
    )
    for label, variant, deepest in cases:
        board = Board(variant)
        for d in range(1, deepest + 1):
            print("perft %s %d %d" % (label, d, perft(board.geometry, board.player_discs(), board.opponent_discs(), d)))


def main(perft_depth):
    check_rules()
    check_pass_and_end()
    check_bad_input_changes_nothing()
    check_notation()
    check_game()
    check_variants()
    check_kernel_and_children()
    print_perfts(perft_depth)
