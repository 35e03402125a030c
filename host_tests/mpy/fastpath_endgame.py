"""Checks of player.endgame_viper run under the MicroPython unix port (host_tests/test_fastpath_endgame.py drives them)."""

import gc

from othello.board import PASS
from othello.compat import popcount
from othello.geometry import geometry
from othello.kernel_viper import ViperKernel
from player import endgame_viper
from player.endgame_viper import SolverStopped, ViperSolver


def solve_all(cases):
    """cases: (blocked, player, opponent, anti); prints 'case <i> <score> <square or -1>' for each.

    Each position is also solved a second time (the table is warm then, and the
    root must still search for its move) and from a ViperKernel's stack
    (solve_at), two plies up so that the stack index is exercised.
    """
    solvers = {}
    for i, (blocked, player, opponent, anti) in enumerate(cases):
        solver = solvers.get(blocked)
        if solver is None:
            solver = solvers[blocked] = (ViperSolver(geometry(8, blocked)), ViperKernel(geometry(8, blocked), 4))
        solver, kernel = solver
        score, square = solver.solve(player, opponent, anti)
        again, square_again = solver.solve(player, opponent, anti)
        assert (again, square_again) == (score, square), "case %d: a second solve gave %r" % (i, (again, square_again))
        kernel.set_root(opponent, player)
        kernel.pass_move(0)
        kernel.pass_move(1)
        kernel.pass_move(2)  # ply 3 holds the position with `player` to move
        from_kernel = solver.solve_at(kernel, 3, anti)
        assert from_kernel == score, "case %d: solve_at gave %d, solve %d" % (i, from_kernel, score)
        solver.clear_table()
        exact, exact_square = solver.solve_exact(player, opponent, anti)
        assert exact == score, "case %d: solve_exact gave %d, solve %d" % (i, exact, score)
        # a solver made for no more empty squares than these: its stacks are only as deep as they must be
        empties = 64 - popcount(player | opponent | blocked)
        fitted = ViperSolver(geometry(8, blocked), max(empties, 1)).solve(player, opponent, anti)[0]
        assert fitted == score, "case %d: a solver made for %d empties gave %d" % (i, empties, fitted)
        print("case", i, score, PASS if square == PASS else square, PASS if exact_square == PASS else exact_square)


def check_scores(cases):
    """cases: (blocked, player, opponent, anti, expected score from elsewhere); both solves must give it.

    For the emulated Pico, where the plain solver is too slow: the host solves the cases, the device checks
    solve and solve_exact against its scores, and each best move by solving the position after it.
    """
    key = solver = None
    for i, (blocked, player, opponent, anti, expected) in enumerate(cases):
        g = geometry(8, blocked)
        if blocked != key:  # one solver at a time: the Pico's heap does not hold one for every mask
            key = blocked
            solver = None
            gc.collect()
            solver = ViperSolver(g)
        for exact in (False, True):
            solver.clear_table()
            score, square = solver.solve_exact(player, opponent, anti) if exact else solver.solve(player, opponent, anti)
            assert score == expected, "case %d (solve_exact %r): %d, expected %d" % (i, exact, score, expected)
            if square == PASS:
                assert not g.moves(player, opponent), "case %d: PASS, but a move is legal" % i
            else:
                flipped = g.flips(player, opponent, square)
                assert flipped, "case %d: illegal best move %d" % (i, square)
                after, _ = solver.solve(opponent ^ flipped, player | flipped | (1 << square), anti)
                assert -after == expected, "case %d: move %d scores %d, not %d" % (i, square, -after, expected)
    print("solver twins ok", len(cases))


def small_solver_answers(cases, machine_code):
    """cases: (blocked, player, opponent, anti); prints 'answers <i> <list>' for each, solved by the player's
    solver with its last seven empty squares and its play_and_count in machine code (player/endgame_thumb.py,
    the Pico only) or viper.

    Each case is solved with a full window, a null window on either side of the draw, a narrow one off the
    score and by solve_exact, from a clear table: (score, move, nodes) each. The Pico's machine code must give
    the viper solver's answers on the host, node counts too, as the levels' node budgets and the host's
    replay count on the same tree.
    """
    assert not machine_code or endgame_viper.endgame_thumb is not None, "no machine code here"
    key = solver = None
    for i, (blocked, player, opponent, anti) in enumerate(cases):
        if blocked != key:
            key = solver = None
            gc.collect()
            # made for these cases' 12 empties at most, with smaller tables
            solver = ViperSolver(geometry(8, blocked), 12, 8, machine_code=machine_code)
        answers = []
        for alpha, beta in ((-64, 64), (-1, 1), (0, 1), (5, 9)):
            solver.clear_table()
            answers.append(solver.solve(player, opponent, anti, alpha, beta) + (solver.nodes,))
        solver.clear_table()
        answers.append(solver.solve_exact(player, opponent, anti) + (solver.nodes,))
        print("answers", i, answers)
    print("small solver answers", len(cases))


def brute_force(g, player, opponent, anti, passed=False):
    """Minimax over every line to the end: no pruning, no ordering, no table."""
    moves = g.moves(player, opponent)
    if not moves:
        if passed or not g.moves(opponent, player):
            diff = bin(player).count("1") - bin(opponent).count("1")
            empties = bin(g.playable & ~(player | opponent)).count("1")
            if diff > 0:
                diff += empties
            elif diff < 0:
                diff -= empties
            return -diff if anti else diff
        return -brute_force(g, opponent, player, anti, True)
    best = -100
    for square in range(64):
        if moves >> square & 1:
            flipped = g.flips(player, opponent, square)
            score = -brute_force(g, opponent ^ flipped, player | flipped | (1 << square), anti)
            if score > best:
                best = score
    return best


def against_brute_force(cases):
    for blocked, player, opponent, anti in cases:
        g = geometry(8, blocked)
        score, square = ViperSolver(g).solve(player, opponent, anti)
        expected = brute_force(g, player, opponent, anti)
        assert score == expected, "%#x %#x anti=%r: viper %d, brute force %d" % (player, opponent, anti, score, expected)
        if square == PASS:
            assert not g.moves(player, opponent), "%#x %#x: PASS, but a move is legal" % (player, opponent)
        else:
            flipped = g.flips(player, opponent, square)
            assert flipped, "illegal best move %d" % square
            after = -brute_force(g, opponent ^ flipped, player | flipped | (1 << square), anti)
            assert after == score, "move %d scores %d, not %d" % (square, after, score)
    print("brute force ok", len(cases))


# The most nodes past a node limit: the limit is checked as a node is entered, and a node of seven empty squares
# counts up to 12,279 more within itself (the small solver): a pass and seven children, each of them with a pass and
# six children, and so on down to two empty squares (a pass and two children): m(2) = 3, m(k) = 1 + k (1 + m(k - 1)).
_IN_NODE_MOST = 12280


def limits(player, opponent):
    """A node limit and should_stop() stop a solve; the solver gives the right result afterwards."""
    expected = ViperSolver(geometry(8)).solve(player, opponent)
    solver = ViperSolver(geometry(8))
    try:
        solver.solve(player, opponent, False, node_limit=500)
        raise AssertionError("the node limit did not stop the solve")
    except SolverStopped:
        # checked as a node is entered, so the nodes counted within a node of seven empty squares lie beyond
        assert 500 <= solver.nodes <= 500 + _IN_NODE_MOST, solver.nodes
    calls = [0]

    def stop():
        calls[0] += 1
        return calls[0] >= 3

    solver.clear_table()
    try:
        solver.solve(player, opponent, False, should_stop=stop)
        raise AssertionError("should_stop() did not stop the solve")
    except SolverStopped:
        assert calls[0] == 3
    result = solver.solve(player, opponent)
    assert result == expected, (result, expected)
    print("limits ok", solver.nodes)


def exact_limits(player, opponent):
    """solve_exact's node limit bounds all its solves; what they proved before the cut is kept."""
    solver = ViperSolver(geometry(8))
    score, square = solver.solve_exact(player, opponent)
    total = solver.nodes
    solver.clear_table()
    first, _ = solver.solve(player, opponent, False, -1, 1)
    wld = solver.nodes
    assert first != 0 and wld < total, (first, wld, total)
    for limit, outcome in ((wld // 2, None), (wld + (total - wld) // 2, 1 if score > 0 else -1)):
        solver.clear_table()
        try:
            solver.solve_exact(player, opponent, False, node_limit=limit)
            raise AssertionError("the node limit %d did not stop solve_exact" % limit)
        except SolverStopped:
            assert limit <= solver.nodes <= limit + _IN_NODE_MOST, (limit, solver.nodes)
            assert solver.outcome == outcome, (limit, solver.outcome, outcome)
            if outcome == 1:
                flipped = geometry(8).flips(player, opponent, solver.outcome_square)
                assert flipped, solver.outcome_square
                after, _ = solver.solve(opponent ^ flipped, player | flipped | (1 << solver.outcome_square))
                assert after < 0, (solver.outcome_square, after)
    solver.clear_table()
    assert solver.solve_exact(player, opponent, False, node_limit=total + 1) == (score, square)
    assert solver.nodes == total, (solver.nodes, total)
    print("exact limits ok", score, total)


def allocation(player, opponent, small, large):
    """Bytes allocated by solves of `small` and `large` nodes (node limits), collection off meanwhile."""
    solver = ViperSolver(geometry(8))
    out = []
    for limit in (small, large):
        solver.clear_table()
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        try:
            solver.solve(player, opponent, False, node_limit=limit)
        except SolverStopped:
            pass
        out.append(gc.mem_alloc() - before)
        gc.enable()
        assert solver.nodes >= limit, "the solve ended before %d nodes" % limit
    print("allocated", out[0], out[1])
