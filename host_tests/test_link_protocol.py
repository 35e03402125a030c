"""Link play's protocol (firmware/link/) against a lossy, garbling, reordering cable: the same game on both
devices, or a clear state saying why not; noise never a move; both players pressing at once."""

import random

from hypothesis import HealthCheck, example, given, settings, strategies as st

from link import frames
from link.play import CUT_BACK, MISMATCH, PLAYING, SAME, CAUGHT_UP, reconcile, settings_from_bytes, settings_to_bytes
from link import protocol
from link_helpers import Pair
from othello.scoring import END_TIME
from ui.settings import defaults


def test_a_frame_comes_back_whole_and_escapes_its_start_and_escape_bytes():
    payload = bytes(range(256))[:255]
    data = frames.encode(0x14, 0x7E, 0x7D7E, payload)
    assert data[0] == frames.START and frames.START not in data[1:]
    assert frames.Decoder().feed(b"\x00\x7d" + data) == [(0x14, 0x7E, 0x7D7E, payload)]


def test_crc_is_ccitt_false():
    assert frames.crc16(b"123456789") == 0x29B1  # the catalogue's check value


@given(st.binary(min_size=1, max_size=40), st.integers(0, 10**9))
@settings(max_examples=300)
def test_any_single_garbled_or_lost_byte_loses_the_frame_never_changes_it(payload, seed):
    rng = random.Random(seed)
    data = bytearray(frames.encode(0x14, 5, 1234, payload))
    at = rng.randrange(1, len(data))
    if rng.random() < 0.5:
        data[at] ^= 1 << rng.randrange(8)
    else:
        del data[at]
    decoded = frames.Decoder().feed(bytes(data) + frames.encode(0x03, 0, 0))
    assert decoded[-1] == (0x03, 0, 0, b"")  # the next frame is found again
    assert all(frame == (0x14, 5, 1234, payload) for frame in decoded[:-1])


def test_reconcile_takes_the_longer_history_or_the_common_start():
    assert reconcile(b"\x01\x02", b"\x01\x02") == (b"\x01\x02", SAME)
    assert reconcile(b"\x01", b"\x01\x02\x03") == (b"\x01\x02\x03", CAUGHT_UP)
    assert reconcile(b"\x01\x02\x03", b"\x01") == (b"\x01\x02\x03", CAUGHT_UP)
    assert reconcile(b"\x01\x02\x05", b"\x01\x02\x03\x04") == (b"\x01\x02", CUT_BACK)


def test_an_offer_carries_every_new_game_setting():
    offer = dict(defaults(8), size=10, start="parallel", anti=True, hole=True, handicap=2, handicap_to=1,
                 clock=5, match="race", race=150, games=3, colour=1, first=1)
    back = settings_from_bytes(settings_to_bytes(offer))
    assert all(back[key] == offer[key] for key in back)


def test_a_player_whose_clock_runs_out_loses_on_time_on_both_devices():
    pair = Pair(5, settings=dict(defaults(8), clock=5))
    assert pair.run(30000, lambda: pair.both_playing() and pair.a.play.session.game.move_count() >= 6)
    mover = pair.a if pair.a.play.my_turn() else pair.b
    mover.passive = True  # this player stops moving: their five minutes run out, and the other's do not
    assert not pair.run(299000, pair.both_over)
    assert pair.run(3000, pair.both_over) and pair.same_game()
    for side in (pair.a, pair.b):
        result = side.play.session.game.result()
        assert result.reason == END_TIME and result.winner == 1 - mover.play.my_colour()


def test_a_clean_cable_plays_a_whole_game_alike_on_both_devices():
    pair = Pair(1)
    assert pair.run(120000, pair.both_over)
    assert pair.same_game()
    assert pair.a.play.session.label(pair.a.play.my_colour()) == "You"
    assert pair.a.play.session.label(1 - pair.a.play.my_colour()) == "Link"


@given(
    seed=st.integers(0, 2**32),
    drop=st.floats(0, 0.03),
    garble=st.floats(0, 0.03),
    reorder=st.floats(0, 0.3),
    duplicate=st.floats(0, 0.2),
    ask_rate=st.floats(0, 0.2),
)
# a draw agreed on one device while the other asked to take back: the finished game is not taken back
@example(seed=4007265, drop=0.0, garble=0.0078125, reorder=0.234375, duplicate=0.1484375, ask_rate=0.1171875)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_faulty_cable_ends_in_the_same_game_on_both_devices(seed, drop, garble, reorder, duplicate, ask_rate):
    pair = Pair(seed, dict(drop=drop, garble=garble, reorder=reorder, duplicate=duplicate))
    pair.a.ask_rate = pair.b.ask_rate = ask_rate
    finished = pair.run(600000, pair.both_over)
    if not finished:  # the faults kept the link down: once the cable is good, both must agree and finish
        pair.heal()
        assert pair.run(600000, pair.both_over), (pair.a.play.state, pair.b.play.state)
    pair.heal()
    pair.run(5000)  # the last acknowledgements
    assert pair.same_game(), (pair.a.play.session.game.transcript(), pair.b.play.session.game.transcript())


def test_thousands_of_faults_in_a_few_long_games():
    faults = 0
    for seed in range(24):
        pair = Pair(100 + seed, dict(drop=0.005, garble=0.005, reorder=0.3, duplicate=0.2))
        pair.a.ask_rate = pair.b.ask_rate = 0.1
        assert pair.run(900000, pair.both_over)
        pair.heal()
        pair.run(5000)
        assert pair.same_game()
        faults += pair.a_to_b.faults + pair.b_to_a.faults
    assert faults > 2000


def test_noise_on_the_line_never_becomes_a_move():
    pair = Pair(7)
    assert pair.run(20000, pair.both_playing)
    game = pair.b.play.session.game
    before = game.history.squares()
    rng = random.Random(3)
    for _ in range(2000):
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        if rng.random() < 0.3:
            noise = bytes((frames.START,)) + noise  # a frame's start, then garbage
        pair.b.play.receive(noise, pair.clock.now)
    assert game.history.squares() == before
    assert pair.b.play.link.decoder.dropped > 100


def test_a_pulled_cable_shows_the_link_lost_and_the_game_carries_on_when_it_is_back():
    pair = Pair(11)
    assert pair.run(20000, lambda: pair.both_playing() and pair.a.play.session.game.move_count() >= 10)
    pair.a_to_b.cut = pair.b_to_a.cut = True
    assert pair.run(10000, lambda: pair.a.play.state == pair.b.play.state == "lost")
    pair.a_to_b.cut = pair.b_to_a.cut = False
    assert pair.run(10000, pair.both_playing)
    assert pair.run(120000, pair.both_over)
    assert pair.same_game()


def test_a_move_one_device_never_got_is_caught_up_after_the_cable_comes_back():
    pair = Pair(12)
    assert pair.run(20000, lambda: pair.both_playing() and pair.a.play.session.game.move_count() >= 6)
    pair.a.passive = pair.b.passive = True
    pair.run(2000)
    mover = pair.a if pair.a.play.my_turn() else pair.b
    pair.a_to_b.cut = pair.b_to_a.cut = True
    mover.play.play(mover.play.session.game.board.legal_squares()[0])  # sent into the pulled cable
    longer = mover.play.session.game.history.squares()
    pair.run(10000)
    pair.a_to_b.cut = pair.b_to_a.cut = False
    assert pair.run(10000, pair.both_playing)
    assert pair.a.play.session.game.history.squares() == pair.b.play.session.game.history.squares() == longer
    other = pair.b if mover is pair.a else pair.a
    assert other.play.note == "Caught up on missed moves"


def test_a_restarted_peer_resumes_from_its_saved_game():
    pair = Pair(13)
    assert pair.run(30000, lambda: pair.both_playing() and pair.b.play.session.game.move_count() >= 15)
    moves = pair.b.play.session.game.move_count()
    pair.b.start()  # power cycle: the saved session comes back, the protocol starts over
    assert pair.b.play.session.game.move_count() == moves
    assert pair.run(20000, pair.both_playing)
    assert pair.run(120000, pair.both_over)
    assert pair.same_game()


def test_histories_that_part_are_cut_back_to_their_common_start_on_both_devices():
    pair = Pair(14)
    assert pair.run(20000, lambda: pair.both_playing() and pair.a.play.session.game.move_count() >= 6)
    pair.a.passive = pair.b.passive = True
    pair.run(2000)
    pair.a_to_b.cut = pair.b_to_a.cut = True
    common = pair.a.play.session.game.move_count()
    mover = pair.a if pair.a.play.my_turn() else pair.b
    other = pair.b if mover is pair.a else pair.a
    mover.play.play(mover.play.session.game.board.legal_squares()[0])
    # the other device's saved game got another move in the meantime (a save from another link session)
    other.play.session.game.play(other.play.session.game.board.legal_squares()[-1])
    pair.run(10000)
    pair.a_to_b.cut = pair.b_to_a.cut = False
    assert pair.run(10000, pair.both_playing)
    assert pair.a.play.session.game.history.squares() == pair.b.play.session.game.history.squares()
    assert pair.a.play.session.game.move_count() == common
    assert pair.a.play.note == pair.b.play.note == "Histories differed: back to move %d" % common


def test_both_asking_to_take_back_at_once_settles_on_one_request():
    pair = Pair(15)
    assert pair.run(20000, lambda: pair.both_playing() and pair.a.play.session.game.move_count() >= 8)
    pair.a.passive = pair.b.passive = True
    pair.run(2000)
    assert pair.a.play.ask_take_back() and pair.b.play.ask_take_back()
    pair.run(3000)
    asked = [side for side in (pair.a, pair.b) if side.play.peer_take_back is not None]
    assert len(asked) == 1  # the chair's request stands; the other device answers it
    asked[0].play.answer_take_back(True)
    pair.run(3000)
    assert pair.a.play.asked_take_back is None and pair.b.play.asked_take_back is None
    assert pair.a.play.session.game.history.squares() == pair.b.play.session.game.history.squares()


def test_both_offering_a_draw_at_once_is_a_draw_on_both():
    pair = Pair(16)
    assert pair.run(20000, lambda: pair.both_playing() and pair.a.play.session.game.move_count() >= 4)
    pair.a.passive = pair.b.passive = True
    pair.a.play.ask_draw()
    pair.b.play.ask_draw()
    pair.run(3000)
    assert pair.a.play.session.game.result().reason == "agreed"
    assert pair.same_game()


def test_a_resignation_ends_the_game_on_both():
    pair = Pair(17)
    assert pair.run(20000, lambda: pair.both_playing() and pair.a.play.session.game.move_count() >= 4)
    pair.a.passive = pair.b.passive = True
    pair.b.play.resign()
    pair.run(3000)
    result = pair.a.play.session.game.result()
    assert result.reason == "resign" and result.winner == pair.a.play.my_colour()
    assert pair.same_game()


def test_both_pressing_a_square_at_the_same_instant_only_moves_the_side_to_move():
    pair = Pair(18)
    assert pair.run(20000, pair.both_playing)
    pair.a.passive = pair.b.passive = True
    pair.run(2000)
    count = pair.a.play.session.game.move_count()
    played = [side.play.play(side.play.session.game.board.legal_squares()[0]) for side in (pair.a, pair.b)]
    assert sum(move is not None for move in played) == 1
    pair.run(2000)
    assert pair.same_game() and pair.a.play.session.game.move_count() == count + 1


def test_a_match_plays_on_game_by_game_with_colours_swapped():
    settings = dict(defaults(8), match="games", games=2)
    pair = Pair(19, settings=settings)
    assert pair.run(120000, pair.both_over)
    first = pair.a.play.my_colour()
    pair.a.play.next_game()
    pair.run(2000)
    assert pair.a.play.session.serial == pair.b.play.session.serial
    assert pair.a.play.my_colour() == 1 - first
    assert pair.run(120000, pair.both_over)
    assert pair.same_game()
    assert pair.a.play.session.match.is_over() or len(pair.a.play.session.match.games) == 1


def test_another_protocol_version_is_said_on_both_screens_never_a_hang():
    pair = Pair(20)
    pair.b.play.link.version = protocol.VERSION + 1
    assert pair.run(5000, lambda: pair.a.play.state == MISMATCH and pair.b.play.state == MISMATCH)
    assert pair.a.play.link.peer_version == protocol.VERSION + 1
    assert pair.b.play.link.peer_version == protocol.VERSION
    assert pair.a.play.session is None and pair.b.play.session is None  # nothing was offered or played
