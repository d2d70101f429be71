# Two commands a newcomer needs: `make run` and `make test`; `make check` is the fast loop while editing.
# All of them set up .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# pytest-xdist workers: one per CPU by default (`make test WORKERS=4` to change it)
WORKERS ?= auto

.PHONY: run test test-postgres check lint demo sync-commands bench coverage clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is required")'
	@test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	@echo "Setting up .venv (once; a minute or two)..."
	@$(BIN)/pip install -qq --disable-pip-version-check --upgrade pip
	@$(BIN)/pip install -qq --disable-pip-version-check -e '.[test]'
	@touch $(STAMP)

# A missing token ends with the bot's own help (exit 78), not with make's error line; any other failure still fails.
run: $(STAMP)
	@$(BIN)/python bot.py || [ $$? -eq 78 ]

# ruff (lint and format) and mypy (strict), the first half of both `make check` and `make test`
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The fast loop: lint, types and the tests not marked slow (under a minute on two cores)
check: lint
	$(BIN)/python -m pytest -n $(WORKERS) -m "not slow"

# Lint, types and the whole suite, in parallel, on SQLite (the store tests of tests/app run on PostgreSQL too, and skip
# with the reason where no server answers)
test: lint
	$(BIN)/python -m pytest -n $(WORKERS)

# The bot's suite (the real bot against the fake Discord) on PostgreSQL, each test in a schema of its own on
# WESTEROS_TEST_POSTGRES (default postgresql://postgres@127.0.0.1:5432/test); tests/app runs on both stores in `make test`
test-postgres: $(STAMP)
	WESTEROS_TEST_STORE=postgres $(BIN)/python -m pytest -n $(WORKERS) tests/bot

# `make demo RULESET=mother-of-dragons PLAYERS=7 GAME_LANG=ru` for the expansion, in Russian. Not LANG: that is the
# shell's locale (LANG=ru_RU.UTF-8), which make reads from the environment too; tools/demo.py refuses a bad language.
RULESET ?= base
PLAYERS ?= 6
SEED ?= 7
GAME_LANG ?= en
demo: $(STAMP)
	@$(BIN)/python tools/demo.py --ruleset $(RULESET) --players $(PLAYERS) --seed $(SEED) --lang $(GAME_LANG)

sync-commands: $(STAMP)
	@$(BIN)/python bot.py --sync-commands

bench: $(STAMP)
	@$(BIN)/python bench/engine.py

coverage: $(STAMP)
	@$(BIN)/python -m engine.coverage --write docs/rules-coverage.md
	@$(BIN)/python -m engine.coverage --ruleset mother-of-dragons --write docs/rules-coverage-mother-of-dragons.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache demo
