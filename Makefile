# Everything a newcomer or CI needs: the Makefile builds its own virtual environment.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install serve test lint format bench openapi mutate clean wrk

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/battle-service serve --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check domain events service tests bench
	$(BIN)/ruff format --check domain events service tests bench
	$(BIN)/mypy domain events service

format: $(STAMP)
	$(BIN)/ruff format domain events service tests bench
	$(BIN)/ruff check --fix domain events service tests bench

# wrk (a C load generator) for bench.wrk, from Debian's packages when we may install them.
wrk:
	@command -v wrk >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get install -y -qq wrk >/dev/null; } || echo "wrk not installed: bench.wrk will skip"

bench: $(STAMP) wrk
	$(BIN)/python -m bench
	$(BIN)/python -m bench.wrk
	$(BIN)/python -m bench.postgres
	$(BIN)/python -m bench.skirmish
	$(BIN)/python -m bench.worst_command
	$(BIN)/python -m bench.tactical
	$(BIN)/python -m bench.tactical_areas
	$(BIN)/python -m bench.inprocess
	$(BIN)/python -m bench.scale
	$(BIN)/python -m bench.verify_export

openapi: $(STAMP)
	$(BIN)/battle-service openapi > openapi/openapi.json

# Mutation testing of what fairness rests on (tests/mutation/run.py; tens of minutes).
$(VENV)/.mutate: pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,mutate]'
	touch $@

mutate: $(VENV)/.mutate
	rm -rf mutants
	$(BIN)/python tests/mutation/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache mutants
