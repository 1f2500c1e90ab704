# Two commands for a newcomer: `make run` and `make test`. Both build .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench clean golden

# What to install is listed once, in pyproject.toml (scripts/requirements.py prints it), pinned by
# constraints.txt.
$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
		echo "$(PYTHON) is missing or older than Python 3.11: name a newer one, e.g. make PYTHON=python3.11 run" >&2; \
		exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python scripts/requirements.py --dev > $(VENV)/requirements.txt
	$(BIN)/python -m pip install --quiet -c constraints.txt -r $(VENV)/requirements.txt
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python bot.py $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The tests run with the bytecode cache on (an environment may set PYTHONDONTWRITEBYTECODE=1): without
# it each worker re-rewrote every test module's asserts and each bot, painter and thinker process
# compiled the project afresh (docs/performance.md, "suite-time4"). scripts/precompile.py writes that
# bytecode once, on the core mypy leaves free, so that pytest's workers do not each write it again
# ("suite-time6"); mypy's result is the line's.
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	PYTHONDONTWRITEBYTECODE= $(BIN)/python scripts/precompile.py --jobs 1 & $(BIN)/mypy; typed=$$?; wait $$! && exit $$typed
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n auto

typecheck: $(STAMP)
	$(BIN)/mypy

# Each benchmark runs in under a minute by default and prints one JSON line of figures last.
bench: $(STAMP)
	for b in engine render service ai versus load; do \
		PYTHONPATH=. $(BIN)/python bench/$$b.py || exit 1; \
	done

golden: $(STAMP)
	$(BIN)/python -m tests.golden --regenerate

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
