# Two commands do everything on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test bench install install-test messages lint migrate clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip setuptools wheel

# Stamps: reinstall only when pyproject.toml changes.
$(VENV)/.installed-app: pyproject.toml | $(PY)
	$(PIP) install -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PIP) install -e ".[test,oracles]"
	bash scripts/ensure_system_deps.sh
	touch $@

install: $(VENV)/.installed-app
install-test: $(VENV)/.installed-test

# Compiled translations (.mo) are build output, made from the .po files on every run.
messages: | $(PY)
	$(PY) scripts/compile_messages.py

migrate: install messages
	$(PY) manage.py migrate --noinput

# scripts/serve.py starts the venv's daphne (--websocket_timeout -1 -b HOST -p PORT
# baithak.asgi:application) and prints the address to open once the port accepts, after
# daphne's own start-up lines; Ctrl-C stops both.
run: migrate
	$(PY) scripts/serve.py --host $(HOST) --port $(PORT)

lint: install-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

# Failures are run once more on their own (pytest --lf): a browser test can time out on a
# loaded machine. A test that fails again fails the run.
test: install-test messages lint
	$(PY) -m pytest || { echo "== running the failed tests once more =="; $(PY) -m pytest --lf; }

# The live tables' benchmarks need the machine's PostgreSQL and Redis for the second run
# of each (see .ci/run for starting them).
bench: install-test messages
	$(PY) bench/engine.py
	$(PY) bench/lighthouse.py
	$(PY) bench/backgammon.py
	$(PY) bench/load.py
	$(PY) bench/load.py --backend postgres
	$(PY) bench/load.py --game backgammon
	$(PY) bench/load.py --game backgammon --backend postgres
	$(PY) bench/bgbot.py
	$(PY) bench/bgbot.py --backend postgres
	$(PY) bench/soak.py
	$(PY) bench/analysis.py
	$(PY) bench/mistakes.py
	$(PY) bench/bgbot.py --duel 400
	$(PY) bench/bgbot.py --game courtpiece
	$(PY) bench/bots.py

# bench/results/ is the benchmarks' dated history, committed: clean leaves it alone.
clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis
