# gshare: the two set-up commands of the README, plus checks and benchmarks.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: serve test install install-dev check lint typecheck schema bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'

## README command 1: install and serve on the embedded defaults (http://127.0.0.1:8000)
serve: install
	$(BIN)/gshare serve

## README command 2: install and run every test
test: install-dev
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

bench: install-dev
	$(BIN)/python -m tests.bench.placement
	$(BIN)/python -m tests.bench.ledger
