"""Two linked devices' game logic on the host: link/play.py over a faulty channel, with a virtual clock.

No screens and no UART: each Side is what the link screen does with its
LinkPlay (offer when it is its turn to, accept an offer, play a random legal
move on its turn, now and then ask to take back or for a draw, answer what
the peer asks), so the tests can throw faults at the protocol and compare
the two games at the end.
"""

import json
import random
from concurrent.futures import ThreadPoolExecutor

import hw
from othello.game import Game

from link.play import (CONSIDERING, DECLINED, OFFERING, PLAYING, LinkPlay)
from link.protocol import Protocol
from ui.session import Session
from ui.settings import defaults

STEP_MS = 10


class Channel:
    """One direction of the cable: bytes written arrive later, some dropped, garbled, or out of order.

    Each write is a burst (a frame or a few); bursts are delayed by a random
    time, so a later burst can overtake an earlier one. `cut` drops
    everything while it is True (the cable pulled out).
    """

    def __init__(self, rng, drop=0.0, garble=0.0, reorder=0.0, duplicate=0.0):
        self.rng = rng
        self.drop, self.garble, self.reorder, self.duplicate = drop, garble, reorder, duplicate
        self.in_flight = []  # (arrival time, bytes)
        self.cut = False
        self.faults = 0

    def write(self, data, now):
        if not data or self.cut:
            return
        rng = self.rng
        out = bytearray()
        for byte in data:
            roll = rng.random()
            if roll < self.drop:
                self.faults += 1
                continue
            if roll < self.drop + self.garble:
                self.faults += 1
                byte ^= 1 << rng.randrange(8)
            out.append(byte)
        delay = 2 + (rng.randrange(120) if rng.random() < self.reorder else 0)
        if delay > 2:
            self.faults += 1
        self.in_flight.append((now + delay, bytes(out)))
        if rng.random() < self.duplicate:
            self.faults += 1
            self.in_flight.append((now + delay + rng.randrange(60), bytes(out)))

    def read(self, now):
        arrived = [item for item in self.in_flight if item[0] <= now]
        self.in_flight = [item for item in self.in_flight if item[0] > now]
        arrived.sort(key=lambda item: item[0])
        return b"".join(data for _, data in arrived)


class Clock:
    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


class Side:
    """One device: its LinkPlay, its saved session (as game.json would hold it), and a random player."""

    def __init__(self, name, clock, rng, settings=None, version="test", saved=None):
        self.name = name
        self.clock = clock
        self.rng = rng
        self.version = version
        self.settings = settings or defaults(8)
        self.saved = saved
        self.ask_rate = 0.0
        self.passive = False  # plays no moves itself (a test drives it)
        self.start()

    def start(self):
        """Power-up and Link play chosen: the saved session, if any, comes back from its dict."""
        session = None
        if self.saved is not None:
            session = Session.from_dict(self.saved, 8, self.clock)
        protocol = Protocol(self.version, self.clock.now, seed=self.rng.randrange(1 << 30))
        self.play = LinkPlay(protocol, session, self.make_session, self.settings)
        self.next_move_at = 0

    def make_session(self, settings, me, link_id):
        return Session.linked(settings, me, link_id, self.clock)

    def save(self):
        if self.play.session is not None:
            self.saved = self.play.session.to_dict()

    def act(self, now):
        play = self.play
        rng = self.rng
        if play.state == OFFERING and not play.offered:
            play.offer(rng.randrange(1, 1 << 16))
        elif play.state == DECLINED:
            play.offer(rng.randrange(1, 1 << 16))
        elif play.state == CONSIDERING:
            play.answer(True)
        elif play.state == PLAYING:
            play.check_my_clock()  # as the link screen does every frame
        if play.state == PLAYING and not self.passive:
            session = play.session
            game = session.game
            if play.peer_take_back is not None:
                play.answer_take_back(rng.random() < 0.5)
            if play.peer_draw:
                play.answer_draw(rng.random() < 0.3)
            if game.is_over():
                return
            if play.my_turn() and now >= self.next_move_at:
                if rng.random() < self.ask_rate and play.asked_take_back is None:
                    play.ask_take_back()
                elif rng.random() < self.ask_rate / 4 and not play.asked_draw:
                    play.ask_draw()
                else:
                    legal = game.board.legal_squares()
                    play.play(rng.choice(legal))
                self.next_move_at = now + rng.randrange(20, 200)
        self.save()


class Pair:
    """Two sides joined by two channels; run() steps them on the virtual clock."""

    def __init__(self, seed, faults=None, settings=None):
        self.rng = random.Random(seed)
        self.clock = Clock()
        faults = faults or {}
        self.a_to_b = Channel(random.Random(seed * 2 + 1), **faults)
        self.b_to_a = Channel(random.Random(seed * 2 + 2), **faults)
        self.a = Side("A", self.clock, random.Random(seed * 3 + 1), settings)
        self.clock.now += 500  # A opened Link play first: A offers
        self.b = Side("B", self.clock, random.Random(seed * 3 + 2))

    def step(self):
        now = self.clock.now
        for side, inbox, outbox in ((self.a, self.b_to_a, self.a_to_b), (self.b, self.a_to_b, self.b_to_a)):
            data = inbox.read(now)
            if data:
                side.play.receive(data, now)
            side.play.tick(now)
            side.act(now)
            outbox.write(side.play.take_output(), now)
        self.clock.now += STEP_MS

    def run(self, ms, until=None):
        end = self.clock.now + ms
        while self.clock.now < end:
            self.step()
            if until is not None and until():
                return True
        return False

    def both_over(self):
        return all(side.play.state == PLAYING and side.play.session.game.is_over() for side in (self.a, self.b))

    def both_playing(self):
        return all(side.play.state == PLAYING for side in (self.a, self.b))

    def same_game(self):
        sa, sb = self.a.play.session, self.b.play.session
        return (
            sa is not None and sb is not None
            and sa.link_id == sb.link_id
            and sa.game.history.squares() == sb.game.history.squares()
            and sa.game.result() == sb.game.result()
        )

    def heal(self):
        for channel in (self.a_to_b, self.b_to_a):
            channel.drop = channel.garble = channel.reorder = channel.duplicate = 0.0
            channel.cut = False


# ----- two devices running main.py (simulated or emulated), their link UARTs joined ---------------------------


class DeviceCable:
    """The three wires between two devices (SimulatedDevice or EmulatedPico), stepped in lockstep; `connected`
    False pulls it out. Each step runs the two devices at once (each is its own process), then carries the
    bytes each one sent in it."""

    def __init__(self, a, b, step_ms=20, tap_ms=(80, 120)):
        self.a, self.b = a, b
        self.both = ThreadPoolExecutor(2)
        self.step_ms = step_ms
        self.tap_ms = tap_ms
        self.to_b, self.to_a = bytearray(), bytearray()
        a.link = self.to_b.extend
        b.link = self.to_a.extend
        self.connected = True
        self.carried = 0

    def run(self, ms):
        for _ in range(max(1, ms // self.step_ms)):
            for step in [self.both.submit(device.run_for, self.step_ms) for device in (self.a, self.b)]:
                step.result()  # raises what the device's run raised
            for sent, receiver in ((self.to_b, self.b), (self.to_a, self.a)):
                if sent and self.connected:
                    receiver.feed_link(bytes(sent))
                    self.carried += len(sent)
                sent.clear()

    def tap(self, sim, *names):
        for name in names:
            sim.press(name)
            self.run(self.tap_ms[0])
            sim.release(name)
            self.run(self.tap_ms[1])


def saved(sim, name):
    data = sim.flash_file("%s/%s" % (hw.STORAGE_ROOT, name))
    return None if data is None else json.loads(data)


def linked_game(sim):
    """(game, this device's colour) from the device's saved session, or (None, None)."""
    data = saved(sim, "game.json")
    if data is None or data.get("mode") != "link":
        return None, None
    me = data["link"][0]
    return Game.from_dict(data["game"]), 0 if data["black_player"] == me else 1
