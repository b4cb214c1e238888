# gshare: the two set-up commands of the README, plus checks and benchmarks.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: serve test install install-dev check lint typecheck schema bench web web-check mutation node-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'

## The web console (web/): `npm ci` when the lockfile changed (npm writes
## node_modules/.package-lock.json), then `npm run build` (codegen, tsc, vite) when web/dist is
## missing or older than any source, the lockfile or schema.graphql.
WEB_SOURCES := $(shell find web/src web/public -type f -not -path 'web/src/gql/*' 2>/dev/null) \
	web/index.html web/graphiql.html web/package.json web/vite.config.ts web/codegen.ts web/tsconfig.json schema.graphql

## The console is built with Node.js and npm (the versions web/package.json's "engines" names):
## checked first, with a message saying what to install instead of npm's own errors.
node-check:
	@$(PYTHON) web/check_node.py

web/node_modules/.package-lock.json: web/package-lock.json web/package.json
	@$(PYTHON) web/check_node.py
	@echo "gshare: installing the console's npm packages (web/node_modules)"
	@cd web && npm ci --no-audit --no-fund --loglevel=error

web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SOURCES)
	@echo "gshare: building the web console (web/dist)"
	@cd web && npm run --silent build

web: web/dist/index.html

## Console checks: lint, typed documents + tsc --noEmit, Vitest unit tests
web-check: web/node_modules/.package-lock.json
	cd web && npm run lint && npm run typecheck && npm test

## README command 1: install and serve on the embedded defaults (http://127.0.0.1:8000)
serve: install web
	$(BIN)/gshare serve

## README command 2: install and run every test
test: install-dev web-check web
	$(BIN)/pytest

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install-dev
	$(BIN)/mypy --strict domain

check: lint typecheck
	$(BIN)/python .ci/check_boundaries.py
	$(BIN)/python -m api.export_schema --check

schema: install-dev
	$(BIN)/python -m api.export_schema

## Benchmarks (minutes each; the PostgreSQL ones need GSHARE_TEST_DATABASE_URL)
bench: install-dev web
	$(BIN)/python -m tests.bench.placement
	$(BIN)/python -m tests.bench.ledger
	$(BIN)/python -m tests.bench.admission
	$(BIN)/python -m tests.bench.metering
	$(BIN)/python -m tests.bench.console

## Mutation testing of domain/ (mutmut) with the score per package; not part of `make test`.
## PACKAGE=domain/credits tests one package, JOBS=1 one mutant at a time (default min(2, cores)); results are
## kept in mutants/ (incremental).
mutation: install-dev
	$(BIN)/pip install --quiet -e '.[dev,mutation]'
	$(BIN)/python -m tests.mutation.run $(foreach p,$(PACKAGE),--package $(p)) $(if $(JOBS),--jobs $(JOBS))
