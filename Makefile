# Two commands for a newcomer: `make run` and `make test`. Both build .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean golden

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt "discord.py" aiosqlite pillow python-dotenv orjson pytest pytest-asyncio hypothesis ruff
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python bot.py $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

# Each benchmark runs in under a minute by default and prints one JSON line of figures last.
bench: $(STAMP)
	for b in engine render service ai load; do \
		PYTHONPATH=. $(BIN)/python bench/$$b.py || exit 1; \
	done

golden: $(STAMP)
	$(BIN)/python -m tests.golden --regenerate

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
