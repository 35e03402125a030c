"""The device benchmarks' workloads: MicroPython scripts that run on the board (device/bench.py runs them
on the emulated Pico or the unix port, with their settings prepended as globals), each printing one
figure a line."""
