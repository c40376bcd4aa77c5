# Everything a newcomer or CI needs: the Makefile builds its own virtual environment.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NPM_DIR := clients/ts
NPM_STAMP := $(NPM_DIR)/node_modules/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install serve test lint format bench openapi examples lock docs-assets chromium mutate clean wrk viewer-picture

$(STAMP): pyproject.toml clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m pip install --quiet -e ./clients/python
	touch $(STAMP)

# The OpenAPI linter and the TypeScript client's tools, at the versions of the committed
# package-lock.json (tests/e2e/test_openapi_lint.py, test_typescript_client.py use them).
$(NPM_STAMP): $(NPM_DIR)/package.json $(NPM_DIR)/package-lock.json
	cd $(NPM_DIR) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The TypeScript library built to clients/ts/dist (ES modules): the table page (/table)
# serves it as it is under /table/lib/. Not committed; rebuilt when its sources change.
LIB_STAMP := $(NPM_DIR)/dist/index.js
$(LIB_STAMP): $(NPM_STAMP) $(wildcard $(NPM_DIR)/src/*.ts)
	cd $(NPM_DIR) && npm run build --silent
	touch $@

install: $(STAMP) $(NPM_STAMP) $(LIB_STAMP)

serve: $(STAMP)
	$(BIN)/battle-service serve --host $(HOST) --port $(PORT)

test: $(STAMP) $(NPM_STAMP) $(LIB_STAMP) chromium
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
	$(BIN)/ruff check domain events service tests bench clients/python
	$(BIN)/ruff format --check domain events service tests bench clients/python
	$(BIN)/mypy domain events service
	$(BIN)/mypy --strict clients/python/src clients/python/examples/play.py

format: $(STAMP)
	$(BIN)/ruff format domain events service tests bench clients/python
	$(BIN)/ruff check --fix domain events service tests bench clients/python

# wrk (a C load generator) for bench.wrk, from Debian's packages when we may install them.
wrk:
	@command -v wrk >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get install -y -qq wrk >/dev/null; } || echo "wrk not installed: bench.wrk will skip"

bench: $(STAMP) wrk
	$(BIN)/python -m bench
	$(BIN)/python -m bench.wrk
	$(BIN)/python -m bench.postgres
	$(BIN)/python -m bench.sqlite_sync
	$(BIN)/python -m bench.pg_writers
	$(BIN)/python -m bench.skirmish
	$(BIN)/python -m bench.worst_command
	$(BIN)/python -m bench.tactical
	$(BIN)/python -m bench.tactical_areas
	$(BIN)/python -m bench.warfare
	$(BIN)/python -m bench.inprocess
	$(BIN)/python -m bench.scale
	$(BIN)/python -m bench.verify_export
	$(BIN)/python -m bench.forecast
	$(BIN)/python -m bench.hot_battle
	$(BIN)/python -m bench.awaiting

openapi: $(STAMP)
	$(BIN)/battle-service openapi > openapi/openapi.json
	$(BIN)/python clients/python/tools/gen.py

# An example of every command and event, from real decider output (service/openapi/examples.json).
examples: $(STAMP)
	$(BIN)/python -m tests.support.harvest_examples
	$(BIN)/battle-service openapi > openapi/openapi.json

# requirements.lock: every dependency pinned with its hashes, for the image's Python 3.12
# (deploy/Dockerfile installs from it); rerun after changing pyproject's dependencies.
$(VENV)/.lock-tools: $(STAMP)
	$(BIN)/python -m pip install --quiet uv
	touch $@

lock: $(VENV)/.lock-tools
	$(BIN)/uv pip compile pyproject.toml --generate-hashes --universal --python-version 3.12 \
		--no-header --quiet -o requirements.lock

# Refresh the docs pages' committed scripts from npm (versions in the script).
docs-assets:
	bash service/openapi/vendored/fetch.sh

# The replay viewer's picture (docs/DESK.md): the browser test's screenshot of a battle it
# plays (tests/e2e/test_viewer_browser.py), reduced to 96 colours.
viewer-picture: $(STAMP) chromium
	BATTLE_TEST_ARTIFACTS=tests/artifacts $(BIN)/python -m pytest -q \
	  tests/e2e/test_viewer_browser.py -k recorded
	$(BIN)/python -c "from PIL import Image; Image.open('tests/artifacts/viewer-referee.png')\
	  .convert('RGB').quantize(96).save('docs/viewer.png', optimize=True)"

# Mutation testing of what fairness rests on (tests/mutation/run.py; tens of minutes).
$(VENV)/.mutate: pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,mutate]'
	touch $@

# `make mutate ONLY=domain/rulesets/quickstart` (packages or modules, space-separated):
# those instead of pyproject's only_mutate list, a piece at a time. `MAX_CHILDREN=1`: one
# mutant at a time (default: one per core), on a machine others share.
# The service's trust code in pieces (docs/TESTING.md, "Mutation testing"):
#   make mutate ONLY="events/receipts.py service/battles/signing.py service/battles/receipt_checks.py"
#   make mutate ONLY=service/battles/sealing.py
#   make mutate ONLY="service/battles/keys.py service/battles/record_macs.py"
#   make mutate ONLY=service/battles/commands.py
#   make mutate ONLY="service/desk/export.py service/desk/importing.py"
#   make mutate ONLY=service/http/limits.py
#   make mutate ONLY=service/http/command_route.py
mutate: $(VENV)/.mutate
	rm -rf mutants
	$(BIN)/python tests/mutation/run.py $(if $(ONLY),--only $(ONLY)) $(if $(MAX_CHILDREN),--max-children $(MAX_CHILDREN))

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache mutants $(NPM_DIR)/node_modules $(NPM_DIR)/dist
