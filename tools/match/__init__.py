"""Strength matches: versus.py plays this tree's computer player against the firmware of another git
revision, each at its device-time budget; match_openings.txt holds the balanced openings that matches,
replays and the training data start from."""
