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
