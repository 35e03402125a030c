"""The firmware run by this computer: micropython_runner.py runs code under MicroPython's unix port or
its 32-bit WASI build; player_process.py asks the computer player of a firmware tree for moves in a
process of its own (player_worker.py is what runs in that process)."""
