"""The Pico: its firmware build, putting it on a board, the emulated Pico and the device benchmarks.

    firmware_build.py   firmware/ compiled for the RP2040 into build/NAME/, the board's layout
    deploy.py           make flash, run, repl, bench-device: the build onto a Pico over USB (mpremote)
    uf2.py              make uf2: MicroPython and the game in one file for the RPI-RP2 drive
    fetch_firmware.py   make firmware: MicroPython's .uf2 for the Pico and the RP2040's boot ROM, checked
    pico_emulator.py    the real firmware on an emulated RP2040 (npm rp2040js; the chip is pico/chip.mjs)
    bench.py            the device benchmarks, one subcommand a workload (workloads/: the MicroPython
                        scripts they run; ui_heap.py and cycle_profile.py: the two run from this side)
    replay.py           games on the emulated Pico replayed on the host: node budgets decide its moves
    wasi_memory.py      a whole game's heap on MicroPython's 32-bit WASI build
"""
