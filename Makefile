# The README's two commands: `make run` and `make test`. Everything else is a helper of those two.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
BARE   := .venv-bare
PG_URL ?= postgresql://postgres@127.0.0.1:5432/amigos
REDIS_URL ?= redis://127.0.0.1:6379/15
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv lint typecheck imports test-bare test-py test-pg test-alone bench bench-quick clean

$(STAMP): pyproject.toml src/amigos/academy/_two_ended_kernel.c
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@

venv: $(STAMP)

## make run: set up and start the site (SQLite, one process, in-memory bus) on http://127.0.0.1:8000
run: $(STAMP)
	$(BIN)/amigos manage migrate --noinput
	@echo "First administrator: $(BIN)/amigos createadmin"
	$(BIN)/amigos serve --host $(HOST) --port $(PORT)

## make test: set up and run every check
test: $(STAMP) lint typecheck imports test-bare test-py test-pg test-alone

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

imports: $(STAMP)
	$(BIN)/lint-imports

# The engine's tests in a virtual environment with nothing installed: proves the engine is stdlib-only.
test-bare:
	test -x $(BARE)/bin/python || $(PYTHON) -m venv --without-pip $(BARE)
	cd tests/engine && PYTHONPATH=../../src ../../$(BARE)/bin/python -m unittest discover -q -t ../.. -s .

test-py: $(STAMP)
	$(BIN)/pytest -q -n 2 --dist loadfile -m "not alone" --durations=20

# Every database and bus test again, against the running PostgreSQL and Redis.
# (tests/web holds every test that touches the database or the bus.)
test-pg: $(STAMP)
	AMIGOS_DATABASE_URL=$(PG_URL) AMIGOS_REDIS_URL=$(REDIS_URL) $(BIN)/pytest -q -n 2 --dist loadfile -m "not browser and not alone" --durations=20 tests/web

# The tests that start several server processes, once, with nothing else running beside them.
test-alone: $(STAMP)
	AMIGOS_DATABASE_URL=$(PG_URL) AMIGOS_REDIS_URL=$(REDIS_URL) $(BIN)/pytest -q -m alone tests/web

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/table.py
	$(BIN)/python bench/bots.py
	$(BIN)/python bench/lobby.py
	$(BIN)/python bench/load.py --tables 1000 --rate 1 --seconds 20 --json
	$(BIN)/python bench/archive.py
	$(BIN)/python bench/academy.py
	$(BIN)/python bench/frames.py
	$(BIN)/python bench/horizon.py
	$(BIN)/python bench/db_calls.py

bench-quick: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python bench/engine.py --quick
	$(BIN)/python bench/table.py --quick
	$(BIN)/python bench/bots.py --quick
	$(BIN)/python bench/lobby.py --quick
	$(BIN)/python bench/load.py --quick --json
	$(BIN)/python bench/archive.py --quick
	$(BIN)/python bench/academy.py --quick
	$(BIN)/python bench/frames.py --quick
	$(BIN)/python bench/line_layout.py --quick
	$(BIN)/python bench/horizon.py --quick
	$(BIN)/python bench/db_calls.py --quick

clean:
	rm -rf $(VENV) $(BARE) .mypy_cache .ruff_cache .pytest_cache .hypothesis
