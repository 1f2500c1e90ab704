# Two commands for a newcomer: `make run` and `make test`. Both build .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The dependencies are listed once, in pyproject.toml; this prints them (with "dev": the dev extras too)
# for pip, pinned by constraints.txt.
define REQUIREMENTS
import sys, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
extras = project["optional-dependencies"]["dev"] if "dev" in sys.argv else []
print("\n".join(project["dependencies"] + extras))
endef
export REQUIREMENTS

.PHONY: run test lint typecheck bench clean golden

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -c "$$REQUIREMENTS" dev > $(VENV)/requirements.txt
	$(BIN)/python -m pip install --quiet -c constraints.txt -r $(VENV)/requirements.txt
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python bot.py $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest

typecheck: $(STAMP)
	$(BIN)/mypy

# Each benchmark runs in under a minute by default and prints one JSON line of figures last.
bench: $(STAMP)
	for b in engine render service ai load; do \
		PYTHONPATH=. $(BIN)/python bench/$$b.py || exit 1; \
	done

golden: $(STAMP)
	$(BIN)/python -m tests.golden --regenerate

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
