# Pocket Othello. `make play` plays in the simulator, `make test` runs every test.
# Both create the virtual environment in .venv on first use.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < host_tests/requirements.txt | cut -d' ' -f1)

# The emulated Pico's Node packages (tools/device/pico/package-lock.json), installed on first use.
PICO_DIR := tools/device/pico
NODE_STAMP := $(PICO_DIR)/node_modules/.installed-$(shell cksum < $(PICO_DIR)/package-lock.json | cut -d' ' -f1)

.PHONY: venv test check pico-deps

venv: $(STAMP)

pico-deps: $(NODE_STAMP)

$(NODE_STAMP): $(PICO_DIR)/package-lock.json
	@command -v npm >/dev/null || { echo "The emulated Pico needs Node.js 20 or later with npm (https://nodejs.org)." >&2; exit 2; }
	npm ci --prefix $(PICO_DIR) --no-audit --no-fund --loglevel=error
	touch $@

$(STAMP): host_tests/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r host_tests/requirements.txt
	rm -f $(VENV)/.installed-*
	touch $@

# The tests run in parallel, one process a core (pytest-xdist); the 15 slowest and the time they all took
# are printed last.
# `make check` is the quick inner loop: without the emulated Pico's tests and those marked slow (CI runs
# `make test`). TESTS = more pytest options, e.g. TESTS="-k book"; TEST_PROCESSES = how many processes.
TEST_PROCESSES ?= auto
PYTEST = $(PY) -m pytest -q -n $(TEST_PROCESSES) --dist loadgroup $(TESTS) host_tests
timed = started=$$(date +%s); $(1); status=$$?; echo "make $(2): $$(( $$(date +%s) - started )) s"; exit $$status

test: $(STAMP) $(NODE_STAMP)
	@$(call timed,$(PYTEST) --durations=15,test)

check: $(STAMP)
	@$(call timed,$(PYTEST) -m "not pico and not slow",check)

# ----- the simulator (docs/SIMULATOR.md): BOARD as for the Pico below, SIM = more tools/sim options
# (e.g. --window; --pico runs MicroPython's own RP2040 build on an emulated Pico)
.PHONY: play

play: $(STAMP) $(if $(findstring --pico,$(SIM)),$(NODE_STAMP))
	$(PY) tools/sim $(if $(BOARD),--board "$(BOARD)") $(SIM)

# ----- the Pico (docs/FLASHING.md): BOARD = a file stem in board_configs/, PORT = serial port (default: auto);
# PORT=emulated benchmarks the emulated Pico (tools/device/pico_emulator.py) instead of a real one
BOARD ?=
PORT ?=
PICO ?= RPI_PICO
# The venv's mpremote first on PATH, so deploy.py uses the pinned one.
DEPLOY = PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(PY) tools/device/deploy.py

.PHONY: firmware flash uf2 run repl bench-device bench-power

firmware:
	$(PYTHON) tools/device/fetch_firmware.py --board $(PICO)

flash: $(STAMP)
	$(DEPLOY) flash --board "$(BOARD)" --port "$(PORT)"

# One file with MicroPython and the game (tools/device/uf2.py): drop it on the Pico's RPI-RP2 drive.
uf2: $(STAMP)
	$(PY) tools/device/uf2.py --board "$(BOARD)" --pico "$(PICO)"

run: $(STAMP)
	$(DEPLOY) run --board "$(BOARD)" --port "$(PORT)"

repl: $(STAMP)
	$(DEPLOY) repl --port "$(PORT)"

bench-device: $(STAMP) $(if $(filter emulated,$(PORT)),$(NODE_STAMP))
	$(DEPLOY) bench --board "$(BOARD)" --port "$(PORT)"

# The power of each state of a session on the emulated Pico, and the battery life (docs/POWER.md).
bench-power: $(STAMP) $(NODE_STAMP)
	@test "$(PORT)" = emulated || { echo "bench-power measures the emulated Pico: make bench-power PORT=emulated"; exit 2; }
	$(PY) tools/device/power_bench.py $(if $(BOARD),--board $(BOARD))

# ----- training the evaluation (docs/PLAYER.md, "Training"): self-play data into build/training*, a pattern
# set's fit report, and the shipped weight files. GAMES self-play games (20000 for the full 8x8 run of
# >= 1,000,000 positions), VARIANT the other games' options (--anti, --size 6, with their settings: PLAYER.md),
# PATTERNS a set in tools/training/patterns/ (device6 for 6x6), FIT more tools/training/training_fit.py options (--anti, ...).
GAMES ?= 200
SEED ?= 1
VARIANT ?=
PATTERNS ?= device
FIT ?=

.PHONY: training-data training-fit evaluation

training-data: $(STAMP)
	nice $(PY) tools/training/training_data.py --games $(GAMES) --seed $(SEED) $(VARIANT)

training-fit: $(STAMP)
	nice $(PY) tools/training/training_fit.py --patterns $(PATTERNS) $(FIT)

# The weight files from the data the four training-data runs of docs/TRAINING.md made, then the viper search's
# leaf code from eval8.bin's and eval6.bin's patterns.
evaluation: $(STAMP)
	$(PY) tools/training/training_fit.py --patterns device --write firmware/player/eval8.bin
	$(PY) tools/training/training_fit.py --patterns device --anti --write firmware/player/eval8a.bin
	$(PY) tools/training/training_fit.py --patterns device6 --write firmware/player/eval6.bin
	$(PY) tools/training/training_fit.py --patterns device6 --anti --write firmware/player/eval6a.bin
	$(PY) tools/training/train_evaluation.py --size 8
	$(PY) tools/codegen/gen_viper.py

# ----- the opening book (docs/PLAYER.md, "Opening book"): searches into build/book, the book into
# firmware/player/book8.bin (an interrupted build goes on where it stopped when run again)
.PHONY: book

book: $(STAMP)
	nice $(PY) tools/training/build_book.py
