# Pocket Othello. `make play` plays in the simulator, `make test` runs every test.
# Both create the virtual environment in .venv on first use.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < host_tests/requirements.txt | cut -d' ' -f1)

.PHONY: venv test

venv: $(STAMP)

$(STAMP): host_tests/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r host_tests/requirements.txt
	rm -f $(VENV)/.installed-*
	touch $@

test: $(STAMP)
	$(PY) -m pytest -q host_tests

# ----- the simulator (docs/SIMULATOR.md): BOARD as for the Pico below, SIM = more tools/sim options (e.g. --window)
.PHONY: play

play: $(STAMP)
	$(PY) tools/sim $(if $(BOARD),--board board_configs/$(BOARD).json) $(SIM)

# ----- the Pico (docs/HARDWARE.md): BOARD = a file stem in board_configs/, PORT = serial port (default: auto)
BOARD ?=
PORT ?=
PICO ?= RPI_PICO
# The venv's mpremote first on PATH, so deploy.py uses the pinned one.
DEPLOY = PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(PY) tools/deploy.py

.PHONY: firmware flash run repl bench-device

firmware:
	$(PYTHON) tools/fetch_firmware.py --board $(PICO)

flash: $(STAMP)
	$(DEPLOY) flash --board "$(BOARD)" --port "$(PORT)"

run: $(STAMP)
	$(DEPLOY) run --board "$(BOARD)" --port "$(PORT)"

repl: $(STAMP)
	$(DEPLOY) repl --port "$(PORT)"

bench-device: $(STAMP)
	$(DEPLOY) bench --port "$(PORT)"

# ----- training the evaluation (docs/PLAYER.md, "Training"): data into build/training, then a fit report
# GAMES self-play games (20000 for the full run of >= 1,000,000 positions), PATTERNS a set in tools/patterns/.
GAMES ?= 200
SEED ?= 1
PATTERNS ?= pico

.PHONY: training-data training-fit

training-data: $(STAMP)
	nice $(PY) tools/training_data.py --games $(GAMES) --seed $(SEED)

training-fit: $(STAMP)
	nice $(PY) tools/training_fit.py --patterns $(PATTERNS)
