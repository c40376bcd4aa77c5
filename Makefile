# Everything a newcomer or CI needs: the Makefile builds its own virtual environment.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install serve test lint format bench openapi docs-assets chromium mutate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/battle-service serve --host $(HOST) --port $(PORT)

test: $(STAMP) chromium
	$(BIN)/python -m pytest

# The browser test (tests/e2e/test_browser.py) drives Debian's chromium through the
# PyPI playwright; playwright's own browser download is never used. Installed here when
# missing and we are root; otherwise that test says why it skips (and fails with CI=true).
chromium:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing chromium for the browser test"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
	    || echo "could not install chromium: the browser test will say so"; \
	fi

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
