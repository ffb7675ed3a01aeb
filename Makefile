# Set-up and everyday commands.  `make test` is what CI runs (.ci/run).
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed

.PHONY: play test lint typecheck bench clean

$(STAMP): pyproject.toml native/pyproject.toml native/CMakeLists.txt $(wildcard native/src/*)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,openspiel,pettingzoo,server,study,cluster]'
	@# the optional compiled engine (docs/performance.md): without a compiler the Python engine is
	@# used, unless SKITGUBBE_REQUIRE_NATIVE is set (CI, .ci/run): then a failed build stops here
	$(BIN)/python -m pip install --quiet ./native || { [ -z "$$SKITGUBBE_REQUIRE_NATIVE" ] && \
		echo "make: the compiled engine did not build; the Python engine will be used" >&2; }
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
