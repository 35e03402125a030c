"""Endgame positions from games the computer player played against itself: the solver benchmark's inputs.

Positions from random play are lopsided and easy to solve; these come from play
as the device plays, so their timings are the ones a player meets. ENDGAMES maps
a number of empty squares to eight positions (the 64-character format, side to
move never forced to pass), one from each of eight games. The games were played
by generate() under CPython: level 3 for the first six plies (its noise and
book vary the openings), then level 6 with a 2,500-node budget, game g using
rng_seed g * 100 + ply. Run it to make a new set.
"""


def generate(games=8, sizes=(12, 14, 16, 18, 20)):
    from othello.board import PASS, Board
    import player

    found = {}
    for size in sizes:
        found[size] = []
    for game in range(games):
        board = Board()
        ply = 0
        while not board.is_game_over() and board.empties() >= min(sizes):
            if board.empties() in found and not board.must_pass():
                found[board.empties()].append(board.position())
            level = 3 if ply < 6 else 6
            decision = player.think(board, level, node_limit=2500, rng_seed=game * 100 + ply)
            if decision.square == PASS:
                board.pass_turn()
            else:
                board.play(decision.square)
            ply += 1
    return found


ENDGAMES = {
    12: (
        "--OOOO---OOOOOO-XOOXOOOOOOOOOOXXXOOOOOOXXOOOOOOOX-XXXX--X-XXXX-- X",
        "-O-XXXXX--OXXOXO--OOXXOO--OXXXXOOOOXOOXOXOXXXOOO-XOXXO-O-OOOOO-O X",
        "OOOOOO--O-OXOO--OOXOXOO-OOOOOOO-OXXOXXXXOXOXXOX-OXXXOO--OXXXOO-- X",
        "--X----X--XXXO-X-XXOOOOXOXOOOOOXOOOXOXOXOOOOXOOX--XXXXOXOOOOOOOO X",
        "XXXXXXX-XXOOOOO-XOXXXO--XOXXXXO-XXXXXXX-XXOOXO--XXXOOO--OXXOOO-- O",
        "-XXXXX--O-XXOX--OXXOXX--OXOOXX--OXXOOXX-OXOOOOOOOOOOOOO-OOOOOOOO X",
        "--XXXXX---XXOOO-XXXXXOOXOOXOOOOXO-XXOXOXXOXXXOOX--OOOXOX--XXXXX- X",
        "-OOOOOO---OOXO--XOOOOXXXXOOOOOOXXXOOOXOX--XOXOXX--OXXXOX-OOOOO-O X",
    ),
    14: (
        "---XOO---O-XOOO-XOOXOOOOOOXOOOXXXOOOOOOXXOOOOOOOX-XXXX--X-XXXX-- X",
        "-O-XXXXX--OXXOXO--OOXXOO--OXOXXO-OOOOOXOXXOXXOOO--OOXO-O-OOOOO-O X",
        "-OOOOO--X-OXOO--XOXOXOO-XOOOOOO-XXXOXXXXXXOXXOX-XOXXOO--O-XXOO-- X",
        "--X-------XXX--O-XXOXXOOOXOOOOOOOOOXOXOOOOOOXOOO--XXXXOXOOOOOOOO X",
        "XXXXXXX-XXOOOX--XOXXXO--XOXXXOO-XXXOOO--XXOOXO--XXXOOO--OXXOOO-- O",
        "-XXXXX--O-XXOX--OXXOXX--OXOOXX--OXXOOXX-OXOXXO--OOOOOOO-OOOOOOOO X",
        "--XXXXX---XXOOO-XXXXXOOXOOXOOOOX--XXOXOX-OOOXOOX--OOOXOX--XXXXX- X",
        "-OOOOOO---OOXO--XOOOOXXXXOOOOOOXXXOOXXOX--XOXOXX--OXXX-X-OOOOO-- X",
    ),
    16: (
        "---XOO-----XOOO-XXXXOOOOOXXXOOXXXXOOOOOXXOOOOOOOO-XXXX----XXXX-- X",
        "---XXXX---XXXOOO--OXXXOO--OXXXXO-OOOOXXOXXOXXOXO--OOXO-O-OOOOO-O X",
        "-OOOOO--X-OXOO--XOXOXOO-XOOOOOO-XOOOOOO-XXXXXOX-XXXXOO----XXOO-- X",
        "--X-------XXX--O-XXOXXOOOXOOOOXOOOOXOXXOOOOOXOOO--XXXX--OOOOOOOO X",
        "XOOOOO--XXOOOO--XOXXXO--XOXXXOO-XXXOOO--XXOOXO--XOXOOO--O-XOOO-- X",
        "-XXXXX--O-XXOX--OXXOXX--OXOOXX--OXXOXXX-OXXXXX--O-XXXX--OOOOOOOO O",
        "--XXXXX---XXOX--X-XXXOOXOOOOOOOX--XXOXOX-OOOXOOX--OOOXOX--XXXXX- X",
        "-OOOOOO---OOXO--XOOOOXXXXOOOOOOXXXOOXXOX--XOOOXX--XXOO-X--XO-O-- X",
    ),
    18: (
        "---XOO-----XOO--XXXXOXOOOXOXXOXXXOOXOOOX-OOOOOOOO-XXXX----XXXX-- X",
        "---XXXX---XXOOOO--OXXOOO--OXXXOO-OOOOXO-XXOXXOXX--OOXO-X-OOOOO-- X",
        "-OOOOO--X-OXOO--XOXOXOO-OOOOOOO-OOXXXX--OXXXXXX--XXXOO----XXOO-- X",
        "--X-------XXX--O-XXOXXOOOXOOOOXOOOOXOXXOOOOOXOOO--XXXO--OOOOOO-- X",
        "-OOOOO--XOOOOO--XOOXXO--XOXXXOO-XXXOOO--XXOXXO--XOXXXO--O-X-XO-- X",
        "-XXXXX--O-XXOX--OXXOXX--OXOOXX--OXXOXXX-OXXXXX--O-XXXO--OOOOOO-- X",
        "--XXXXX---XXOX--X-XXXOOX-XXXXXOX--XXOXOX-OOOOOOX--OOOOOX--XXXX-- X",
        "-OOOOOO---OXXO--XOXOOXXXO-XOOOOX-XXOXXOX--XOOOXX--XXOO-X--XO-O-- X",
    ),
    20: (
        "---X-O------XO--XXOOOXOOOOOOXOXXXOOXOOOX-OOOOOOOO-XXXX----XXXX-- X",
        "---XXXX---XXOX-O--OXXOOO--OXXXOO-OOOOOO-XXOXXOOX--OOXO---OOOOO-- X",
        "-OOOOO--X-OXOO--XXXOXOO--XOOOOO-XOXXXX--OXXXXO---XXXOO----XXOO-- X",
        "--X-------XXX--O-XXOXXOOOXOOOOXOOOOXOXXOOOOOXOOO--XXOO---XXX-O-- X",
        "-OOOOO--XOOOOO--XOOXXO--XOXOXOO-XXOOOO--XOOXXO---OOXXO----X-XO-- X",
        "-XXXXX--O-XXOX---OXOXX--XXOOXX--XXXOXXX-XXXXXX--X-XXXO---OOOOO-- X",
        "--XXXXX---XXOX----XXXOOX-OXXXXXX--XXOXXX-OOOOXXX--OOOX-X--XXXX-- X",
        "-OOOOOO---XXXO---OXOOXXX--XOOOOX-XXOXXOX--XOOOXX--XXOO-X--XO-O-- X",
    ),
}
