"""The link cable between two simulators on one machine: `tools/sim --link listen:PORT` on one, `--link
connect:PORT` on the other. Each end is TCP on 127.0.0.1; the bytes the firmware's link UART sends go to the
other simulator's UART as they are, and while the other end is not there they are lost, as on a pulled cable.
Either simulator may start first, stop, and start again: the ends find each other again by themselves."""

import socket
import threading
import time

RETRY_S = 0.5


def parse(spec):
    """("listen" or "connect", port) from "listen:PORT" or "connect:PORT"; ValueError saying what is wrong."""
    mode, _, port = spec.partition(":")
    if mode not in ("listen", "connect") or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("--link takes listen:PORT or connect:PORT (a port 1-65535), not %r" % spec)
    return mode, int(port)


class TcpCable:
    def __init__(self, spec, deliver):
        """`deliver(data)` takes the bytes that arrive from the other simulator."""
        self.mode, self.port = parse(spec)
        self.deliver = deliver
        self.peer = None
        self.closed = False
        self.listener = None
        if self.mode == "listen":
            self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                self.listener.bind(("127.0.0.1", self.port))
            except OSError as error:
                raise ValueError("--link listen:%d: the port is taken (%s)" % (self.port, error.strerror))
            self.listener.listen(1)
        threading.Thread(target=self.keep_joined, daemon=True).start()

    def keep_joined(self):
        while not self.closed:
            try:
                if self.listener is not None:
                    peer, _ = self.listener.accept()
                else:
                    peer = socket.create_connection(("127.0.0.1", self.port), timeout=2)
                    peer.settimeout(None)
            except OSError:
                time.sleep(RETRY_S)
                continue
            peer.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.peer = peer
            while not self.closed:
                try:
                    data = peer.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    break
                self.deliver(data)
            self.peer = None
            peer.close()

    def send(self, data):
        peer = self.peer
        if peer is not None:
            try:
                peer.sendall(data)
            except OSError:
                pass  # the other end went: its bytes are lost, as on a pulled cable

    def close(self):
        self.closed = True
        for sock in (self.peer, self.listener):
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                sock.close()
