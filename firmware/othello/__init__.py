"""Pocket Othello's rules engine: pure logic, no hardware.

The board is two integers, one bitboard per colour (geometry.py explains the
bits). Board applies the rules to one position, Game adds history and clocks,
Match strings games together.
"""

from othello.board import PASS, Board, IllegalMoveError, Move
from othello.game import Clock, Game
from othello.match import MATCH_GAMES, MATCH_RACE, MATCH_SINGLE, Match
from othello.notation import NotationError, parse_square, square_name
from othello.scoring import Result
from othello.variant import BLACK, START_EMPTY, START_OTHELLO, START_PARALLEL, WHITE, Variant

VERSION = "0.1.0"
