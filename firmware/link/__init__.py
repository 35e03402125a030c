"""Link play: two devices, one game, over a three-wire UART cable (docs/LINK.md).

frames.py cuts the byte stream into checked frames, protocol.py keeps a
reliable conversation over them (greeting, acknowledgements, resends, a lost
link), play.py agrees the game on it (offer, moves, take-back, resign, draw,
recovery). None of them touches hardware: bytes go in and come out, time is
the ticks the caller passes, so the host tests drive them with no cable.
"""
