"""The conversation over the cable: greeting, reliable messages, keep-alive and a lost link.

    link = Protocol(firmware_version, now_ms, seed)
    link.receive(bytes_from_uart, now)   # any time, any amount
    link.tick(now)                       # often (every frame of the main loop)
    uart.write(link.take_output())       # what to send
    link.send(kind, payload)             # a reliable message: delivered once, in order, or the link is lost
    for kind, payload in link.take_messages(): ...

States: GREETING (saying hello until the peer answers), UP, LOST (the peer
went quiet or stopped acknowledging: greeting again, with the same peer
expected back), MISMATCH (the peer speaks another protocol version: both say
so and nothing else is sent but hellos). `events` says what changed
(CONNECTED, LOST, MISMATCH) for the game on top (link/play.py).

Reliable messages go one at a time: each carries a sequence number (1..255,
wrapping, never 0), is acknowledged, and is sent again every RESEND_MS until
it is, RETRIES times at most; then the link is lost. A repeated number is
acknowledged again and dropped. Every frame after the greeting carries a tag
made of both sides' session ids: a frame from before a peer's restart never
counts. docs/LINK.md is the full description.
"""

from othello.compat import const, ticks_add, ticks_diff
from link.frames import Decoder, encode

_NOTHING = ()

VERSION = const(1)  # the protocol's version: peers with another one do not play

# Frame types of the conversation itself; the game's messages are link/play.py's (0x10 and up).
HELLO = const(0x01)
ACK = const(0x02)
PING = const(0x03)

GREETING = "greeting"
UP = "up"
LOST = "lost"
MISMATCH = "mismatch"

CONNECTED = "connected"  # the events

HELLO_MS = const(250)  # how often a greeting side says hello
RESEND_MS = const(300)
RETRIES = const(8)
PING_MS = const(700)  # an idle side still says something this often
SILENCE_MS = const(3000)  # nothing heard for this long: the link is lost
MISMATCH_HELLO_MS = const(1000)


class Protocol:
    def __init__(self, firmware, now, seed):
        """`firmware`: this device's version text; `now`: ticks_ms; `seed`: any number (the session id's)."""
        self.firmware = firmware.encode()[:24]
        self.version = VERSION
        self.decoder = Decoder()
        self.output = bytearray()
        self.messages = []
        self.events = []
        self.seed = seed & 0xFFFF
        self.peer_id = 0
        self.peer_firmware = ""
        self.peer_version = VERSION
        self.peer_age_s = 0
        self.started = now
        self.start(now)

    def start(self, now):
        """Greet anew with a fresh session id (the player opened Link play)."""
        self.state = GREETING
        self.renew(now)

    def renew(self, now):
        """A fresh session id and no peer: whatever was in flight belongs to the old conversation."""
        self.seed = (self.seed * 75 + 74 + now) % 65537
        self.my_id = (self.seed & 0xFFFF) or 1
        self.peer_id = 0
        self.reset(now)

    def reset(self, now):
        """Forget the exchange in flight: a new conversation starts from sequence 1."""
        self.queue = []
        self.out_seq = 0
        self.in_seq = 0
        self.sent_at = now
        self.tries = 0
        self.heard_at = now
        self.said_at = ticks_add(now, -HELLO_MS)

    @property
    def tag(self):
        return self.my_id ^ self.peer_id

    def age_s(self, now):
        return min(0xFFFF, ticks_diff(now, self.started) // 1000)

    # ----- bytes in ---------------------------------------------------------------

    def receive(self, data, now):
        for kind, seq, tag, payload in self.decoder.feed(data):
            if kind == HELLO:
                self.hello(payload, now)
            elif self.state == UP and tag == self.tag:
                self.heard_at = now
                if kind == ACK:
                    if self.tries and seq == self.out_seq:  # (tries 0: the head is not sent yet)
                        self.queue.pop(0)
                        self.tries = 0
                        self.sent_at = ticks_add(now, -RESEND_MS)  # the next one goes at once
                elif kind != PING:
                    if seq == _after(self.in_seq):
                        self.in_seq = seq
                        self.messages.append((kind, payload))
                    elif seq != self.in_seq:
                        continue  # not the next one nor a repeat: the sender waits for its acknowledgement
                    self.say(ACK, seq, b"", now)

    def hello(self, payload, now):
        if len(payload) < 7:
            return
        version = payload[0]
        peer_id = (payload[1] << 8) | payload[2]
        heard = (payload[3] << 8) | payload[4]
        self.peer_age_s = (payload[5] << 8) | payload[6]
        try:
            self.peer_firmware = payload[7:].decode()
        except UnicodeError:
            self.peer_firmware = "?"
        if version != self.version:
            if self.state != MISMATCH:
                self.peer_version = version
                self.state = MISMATCH
                self.events.append(MISMATCH)
            return
        if self.state == MISMATCH:
            return
        if peer_id == self.my_id:  # both drew the same id: draw again, or neither could tell the frames apart
            self.renew(ticks_add(now, peer_id + self.peer_age_s))
            return
        if peer_id != self.peer_id:  # a new peer, or the old one lost us or restarted: start over
            self.peer_id = peer_id
            if self.state == UP:
                self.state = LOST
                self.events.append(LOST)
            self.reset(now)
        self.heard_at = now
        if self.state == UP:
            if heard != self.my_id:
                self.say_hello(now)  # the peer has not heard us yet
        elif heard == self.my_id:
            self.reset(now)
            self.state = UP
            self.events.append(CONNECTED)
            self.say_hello(now)
        else:
            self.say_hello(now)

    # ----- time -------------------------------------------------------------------

    def tick(self, now):
        state = self.state
        if state == UP:
            if ticks_diff(now, self.heard_at) >= SILENCE_MS:
                self.lose(now)
            elif self.queue and ticks_diff(now, self.sent_at) >= RESEND_MS:
                if self.tries >= RETRIES:
                    self.lose(now)
                else:
                    if self.tries == 0:
                        self.out_seq = _after(self.out_seq)
                    kind, payload = self.queue[0]
                    self.say(kind, self.out_seq, payload, now)
                    self.tries += 1
                    self.sent_at = now
            elif ticks_diff(now, self.said_at) >= PING_MS:
                self.say(PING, 0, b"", now)
        elif ticks_diff(now, self.said_at) >= (MISMATCH_HELLO_MS if state == MISMATCH else HELLO_MS):
            self.say_hello(now)

    def lose(self, now):
        self.state = LOST
        self.events.append(LOST)
        self.renew(now)

    # ----- bytes out ----------------------------------------------------------------

    def send(self, kind, payload=b""):
        """Queue a reliable message (it goes when the ones before it are acknowledged)."""
        self.queue.append((kind, bytes(payload)))

    def say(self, kind, seq, payload, now):
        self.output += encode(kind, seq, self.tag, payload)
        self.said_at = now

    def say_hello(self, now):
        me, heard, age = self.my_id, self.peer_id, self.age_s(now)
        payload = bytes((self.version, me >> 8, me & 0xFF, heard >> 8, heard & 0xFF, age >> 8, age & 0xFF)) + self.firmware
        self.output += encode(HELLO, 0, 0, payload)
        self.said_at = now

    # The three below run every frame: when there is nothing, they hand back a constant and allocate nothing.

    def take_output(self):
        if not self.output:
            return b""
        out = bytes(self.output)
        self.output = bytearray()
        return out

    def take_messages(self):
        if not self.messages:
            return _NOTHING
        messages, self.messages = self.messages, []
        return messages

    def take_events(self):
        if not self.events:
            return _NOTHING
        events, self.events = self.events, []
        return events


def _after(seq):
    """The sequence number after `seq`: 1..255, round again, skipping 0 (the number of unsequenced frames)."""
    return seq % 255 + 1
