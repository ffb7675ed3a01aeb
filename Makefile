# Set-up and everyday commands.  `make test` is what CI runs (.ci/run).
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed

.PHONY: play test lint typecheck bench clean catalogs generated

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

# the suite on TEST_WORKERS pytest-xdist workers (CI's machine has two cores; 0: in this process)
TEST_WORKERS ?= 2
test: $(STAMP) lint typecheck
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal --cov=skitgubbe --cov-report=term --cov-fail-under=90

# The message catalogs (docs/translating.md): extract every message into the template, bring each
# language's .po up to date with it, compile the .mo files the program reads.
LOCALE = src/skitgubbe/locale
LANGS = sv nb fi
KEYWORDS = -k N_ -k NC_:1c,2 -k Plural:1,2 -k t -k tn:1,2 -k tc:1c,2
catalogs: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg $(KEYWORDS) --no-location --sort-output --omit-header \
		-c TRANSLATORS: -o $(LOCALE)/skitgubbe.pot src
	for l in $(LANGS); do \
		if [ -f $(LOCALE)/$$l/LC_MESSAGES/skitgubbe.po ]; then \
			$(BIN)/pybabel -q update -D skitgubbe -i $(LOCALE)/skitgubbe.pot -d $(LOCALE) -l $$l \
				--no-fuzzy-matching --ignore-obsolete; \
		else $(BIN)/pybabel -q init -D skitgubbe -i $(LOCALE)/skitgubbe.pot -d $(LOCALE) -l $$l; fi; \
	done
	$(BIN)/pybabel -q compile -D skitgubbe -d $(LOCALE) --use-fuzzy

# The compiled engine's option table (docs/performance.md, "One option table"): the C++ preset
# policies and RuntimeRules (native/src/options.gen.hpp), the bindings' table (native/src/
# module_options.gen.hpp) and the stub's list (native/skitgubbe_native.pyi) written from their one
# declaration, skitgubbe.engine.native_options.  Commit what it writes; tests/test_generated_options.py
# (`gen_options.py --check`) fails while a generated file is stale.  Rebuild the module afterwards.
generated: $(STAMP)
	$(BIN)/python native/tools/gen_options.py

bench: $(STAMP)
	$(BIN)/skitgubbe bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage build src/*.egg-info
