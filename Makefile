# Everything a newcomer or CI needs: the Makefile builds its own virtual environment.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install serve test lint format bench openapi docs-assets mutate clean

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

bench: $(STAMP)
	$(BIN)/python -m bench
	$(BIN)/python -m bench.postgres
	$(BIN)/python -m bench.skirmish
	$(BIN)/python -m bench.worst_command
	$(BIN)/python -m bench.tactical
	$(BIN)/python -m bench.tactical_areas
	$(BIN)/python -m bench.inprocess
	$(BIN)/python -m bench.scale

openapi: $(STAMP)
	$(BIN)/battle-service openapi > openapi/openapi.json

# Refresh the docs pages' committed scripts from npm (versions in the script).
docs-assets:
	bash service/docs_assets/fetch.sh

# Mutation testing of what fairness rests on (tests/mutation/run.py; tens of minutes).
$(VENV)/.mutate: pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,mutate]'
	touch $@

mutate: $(VENV)/.mutate
	rm -rf mutants
	$(BIN)/python tests/mutation/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache mutants
