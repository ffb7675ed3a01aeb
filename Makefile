# Set-up and everyday commands.  `make test` is what CI runs (.ci/run).
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed

.PHONY: play test lint typecheck bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,openspiel,pettingzoo,server,study,cluster]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/skitgubbe play

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

test: $(STAMP) lint typecheck
	$(BIN)/pytest --cov=skitgubbe --cov-report=term --cov-fail-under=90

bench: $(STAMP)
	$(BIN)/skitgubbe bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage build src/*.egg-info
