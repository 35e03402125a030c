"""A whole game, computer against computer, in the heap the Pico has (run with -X heapsize=192K).

    MICROPYPATH=firmware:host_tests/mpy .venv/bin/micropython -X heapsize=192K \\
        -c "import fastpath_memory; fastpath_memory.main(8)"

main(level, node_limit=None) plays both sides at `level` (the level's own
node and time budget unless node_limit is given) and prints one line per move
and then:
    peak_alloc   the largest gc.mem_alloc() seen: sampled at every should_stop
                 poll of the search and solver and after every move (garbage
                 not collected yet included)
    peak_live    the largest heap still in use after a collection: sampled by
                 a gc.collect() at every 8th poll and after every move
    heap_total   gc.mem_alloc() + gc.mem_free(), the heap the run was given
A MemoryError anywhere ends the run with its traceback (and a non-zero exit).
"""

import gc

from othello.board import PASS, Board
from othello.kernels import make_kernel
from othello.geometry import geometry

PEAKS = [0, 0, 0]  # peak_alloc, peak_live, polls


def sample(collect):
    if collect:
        gc.collect()
        live = gc.mem_alloc()
        if live > PEAKS[1]:
            PEAKS[1] = live
    used = gc.mem_alloc()
    if used > PEAKS[0]:
        PEAKS[0] = used


def should_stop():
    PEAKS[2] += 1
    sample(PEAKS[2] % 8 == 0)
    return False


def main(level, node_limit=None):
    import player

    print("kernel", make_kernel(geometry(8), 1).name)
    board = Board()
    moves = 0
    sample(True)
    while not board.is_game_over():
        decision = player.think(board, level, should_stop=should_stop, node_limit=node_limit, rng_seed=moves)
        if decision.square == PASS:
            board.pass_turn()
        else:
            board.play(decision.square)
        moves += 1
        sample(True)
        print("move", moves, decision.describe(), decision.nodes, "nodes", decision.elapsed_ms, "ms", "live", PEAKS[1])
    result = board.result()
    print("result", result)
    print("peak_alloc", PEAKS[0])
    print("peak_live", PEAKS[1])
    print("heap_total", gc.mem_alloc() + gc.mem_free())


def main_ui(level, flash=None):
    """The same through the UI (host_tests/ui_fakes.Driver: the App on a fake device): the human side
    plays its first legal move, the computer answers at `level`; needs host_tests/ on the path. `flash`
    is a directory for the saved files (ui_fakes.FlashDirectory: outside the heap, as on the Pico);
    without it they are kept in the heap."""
    from othello.compat import COLLECT_EVERY, collect_every

    collect_every(COLLECT_EVERY)  # as main.py does: first the heap's upkeep ...
    import player
    from othello.variant import Variant

    player.prepare(Variant())  # ... then the player's arrays, while the heap is in one piece
    from ui_fakes import Driver, FakeDevice, FlashDirectory

    think = player.think

    def sampled_think(board, level, should_stop=None, now=None, **options):
        def stop():
            should_stop_sampler()
            return should_stop is not None and should_stop()

        return think(board, level, should_stop=stop, now=now, **options)

    should_stop_sampler = should_stop
    player.think = sampled_think
    sample(True)
    d = Driver(FakeDevice(storage=None if flash is None else FlashDirectory(flash)))
    d.app.settings["level"] = level
    d.press("a")
    d.menu_to("Play computer")
    d.menu_to("Start")
    from ui.play import PASSING  # loaded by now: the App opened the game screen

    game = d.app.session.game
    moves = 0
    while not game.is_over():
        if d.screen.state == PASSING:
            d.press("a")
            continue
        d.play(game.board.legal_squares()[0])
        moves += 1
        sample(True)
    print("result", game.result())
    print("moves", moves)
    print("peak_alloc", PEAKS[0])
    print("peak_live", PEAKS[1])
    print("heap_total", gc.mem_alloc() + gc.mem_free())
