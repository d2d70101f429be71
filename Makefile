# Two commands a newcomer needs: `make run` and `make test`. Both set up .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test demo lint typecheck pytest sync-commands bench coverage clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is required")'
	@test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	@$(BIN)/pip install --quiet --upgrade pip
	@$(BIN)/pip install --quiet -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	@$(BIN)/python bot.py

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest

demo: $(STAMP)
	@$(BIN)/python tools/demo.py

sync-commands: $(STAMP)
	@$(BIN)/python bot.py --sync-commands

bench: $(STAMP)
	@$(BIN)/python bench/engine.py

coverage: $(STAMP)
	@$(BIN)/python -m engine.coverage --write docs/rules-coverage.md
	@$(BIN)/python -m engine.coverage --ruleset mother-of-dragons --write docs/rules-coverage-mother-of-dragons.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache demo
