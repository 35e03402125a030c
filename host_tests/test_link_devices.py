"""Two simulated devices run firmware/main.py, their link UARTs joined: a whole linked game, a pulled cable and
a restarted peer. Each device is its own firmware process in lockstep time; the test presses buttons, carries
the bytes between the two UARTs, and reads only the screens and the flash."""

import socket
import time

import pytest
from ui_harness import BOARD_CONFIGS, check_reference

from othello.game import Game
from simulator import SimulatedDevice, cli
from simulator.cable import TcpCable
from link_helpers import DeviceCable as Cable, linked_game, saved

BOARD = BOARD_CONFIGS / "pico_breadboard_i2c.json"
FIRMWARE = BOARD_CONFIGS.parent / "firmware"


@pytest.fixture(params=["cpython", "micropython"])
def devices(tmp_path, request):
    a = SimulatedDevice(BOARD, flash_dir=tmp_path / "a", interpreter=request.param)
    b = SimulatedDevice(BOARD, flash_dir=tmp_path / "b", interpreter=request.param)
    yield a, b
    a.close()
    b.close()


def open_link_play(cable, sim):
    cable.tap(sim, "down", "down", "a")  # the main menu: Play computer, Two players, Link play


def start(cable):
    a, b = cable.a, cable.b
    a.power_on()
    b.power_on()
    cable.run(1500)  # the title gives way to the main menu
    open_link_play(cable, a)
    cable.run(1500)
    open_link_play(cable, b)  # B chose Link play later: A offers
    cable.run(1500)
    cable.tap(a, "a")  # send the offer (its settings: a single 8x8 game, A plays Black)
    cable.run(500)
    cable.tap(b, "a")  # accept
    cable.run(500)
    assert linked_game(a)[1] == 0 and linked_game(b)[1] == 1


def play_moves(cable, count=None, arrive_ms=1500):
    """Let each device's player press A on their turn (the cursor rests on a legal move) `count` times or
    until the game is over on both; returns the moves played. Each move must be saved on both devices
    within `arrive_ms` of the press's release before the next press."""
    played = 0
    while count is None or played < count:
        game_a, colour_a = linked_game(cable.a)
        game_b, _ = linked_game(cable.b)
        if game_a.is_over() and game_b.is_over():
            break
        mover = cable.a if game_a.turn == colour_a else cable.b
        before = len(game_a.history), len(game_b.history)
        cable.tap(mover, "a")
        waited = 0
        while not (len(linked_game(cable.a)[0].history) > before[0] and len(linked_game(cable.b)[0].history) > before[1]):
            assert waited < arrive_ms, "a press on the side to move was not played on both devices"
            cable.run(100)
            waited += 100
        played += 1
        assert played < 100
    return played


def records_agree(a, b):
    record_a, record_b = saved(a, "records.json")[0], saved(b, "records.json")[0]
    assert record_a["t"] == record_b["t"] and record_a["r"] == record_b["r"] and record_a["v"] == record_b["v"]
    assert record_a["p"] == ["You", "Link"] and record_b["p"] == ["Link", "You"]
    game = Game()
    game.play_transcript(record_a["t"])
    assert game.is_over()


def test_a_whole_linked_game_to_its_end_with_both_records_equal(devices):
    a, b = devices
    cable = Cable(a, b)
    start(cable)
    play_moves(cable)
    cable.run(1500)
    records_agree(a, b)
    assert saved(a, "game.json")["recorded"] and saved(b, "game.json")["recorded"]
    assert "Traceback" not in a.console + b.console


def test_a_pulled_cable_and_a_restarted_peer_lose_nothing(devices, tmp_path):
    a, b = devices
    cable = Cable(a, b)
    start(cable)
    play_moves(cable, 10)
    cable.connected = False
    cable.run(6000)
    check_reference("link_lost", a.screen_text(), tmp_path)  # "Link lost: waiting": wait, play computer, save and leave
    cable.connected = True
    cable.tap(a, "a")  # Wait
    cable.run(2000)
    game_a, game_b = linked_game(a)[0], linked_game(b)[0]
    assert game_a.history.squares() == game_b.history.squares() and game_a.move_count() == 10
    play_moves(cable, 10)
    b.power_cycle(off_ms=1000)  # B's player restarts it, then chooses Continue (the saved linked game)
    cable.run(1500)
    cable.tap(b, "a")
    cable.run(3000)
    game_a, game_b = linked_game(a)[0], linked_game(b)[0]
    assert game_a.history.squares() == game_b.history.squares() and game_a.move_count() == 20
    play_moves(cable)
    cable.run(1500)
    records_agree(a, b)
    assert "Traceback" not in a.console + b.console


def wait_for(condition, seconds=5):
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def test_two_simulators_cables_meet_over_tcp_on_this_machine_and_meet_again():
    port = free_port()
    heard_by_a, heard_by_b = bytearray(), bytearray()
    a = TcpCable("listen:%d" % port, heard_by_a.extend)
    b = TcpCable("connect:%d" % port, heard_by_b.extend)
    try:
        assert wait_for(lambda: a.peer is not None and b.peer is not None)
        a.send(b"\x7e\x01hello")
        b.send(bytes(range(256)))
        assert wait_for(lambda: heard_by_b == b"\x7e\x01hello" and heard_by_a == bytes(range(256)))
        b.close()  # the other simulator quits: bytes are lost until it is back
        assert wait_for(lambda: a.peer is None)
        a.send(b"lost")
        b = TcpCable("connect:%d" % port, heard_by_b.extend)
        assert wait_for(lambda: a.peer is not None and b.peer is not None)
        a.send(b"again")
        assert wait_for(lambda: heard_by_b.endswith(b"again"))
        assert b"lost" not in heard_by_b
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("spec", ["listen", "connect:", "connect:99999", "dial:4000", "listen:http"])
@pytest.mark.parametrize("chip", [[], ["--pico"]])
def test_a_bad_link_option_is_one_clear_line(spec, chip, capsys):
    assert cli.main(["--link", spec, *chip, "--headless", "nothing.txt"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--link takes listen:PORT or connect:PORT" in error


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_another_protocol_version_is_said_on_both_screens(tmp_path):
    newer = tmp_path / "newer_main.py"  # main.py of a firmware whose link protocol is one version on
    newer.write_text("import link.protocol\nlink.protocol.VERSION += 1\n" + (FIRMWARE / "main.py").read_text())
    with SimulatedDevice(BOARD, flash_dir=tmp_path / "a", app=newer) as a, SimulatedDevice(BOARD, flash_dir=tmp_path / "b") as b:
        cable = Cable(a, b)
        a.power_on()
        b.power_on()
        cable.run(1500)
        open_link_play(cable, a)
        open_link_play(cable, b)
        cable.run(2000)
        check_reference("link_version_newer_here", a.screen_text(), tmp_path)  # Link protocol 1 there, 2 here
        check_reference("link_version_older_here", b.screen_text(), tmp_path)  # Link protocol 2 there, 1 here
        cable.tap(b, "b")  # back to the main menu: nothing hangs
        cable.run(500)
        assert saved(a, "game.json") is None and saved(b, "game.json") is None


def test_a_lost_link_can_be_played_on_against_the_computer(tmp_path):
    with SimulatedDevice(BOARD, flash_dir=tmp_path / "a") as a, SimulatedDevice(BOARD, flash_dir=tmp_path / "b") as b:
        cable = Cable(a, b)
        start(cable)
        play_moves(cable, 6)
        cable.connected = False
        cable.run(6000)
        cable.tap(a, "down", "a")  # Link lost: waiting; Play computer
        cable.run(3000)
        data = saved(a, "game.json")
        assert data["mode"] == "cpu" and data["players"] == [None, 2]  # A is match player 0: the computer has 1
        cable.tap(a, "a")  # Black's move, on the game screen now
        cable.run(5000)
        assert len(Game.from_dict(saved(a, "game.json")["game"]).moves_played()) >= 8  # and the computer's answer
