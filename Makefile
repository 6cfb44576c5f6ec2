# tcg-arbiter: `make demo` verifies the shipped corpus, `make test` runs every test.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test setup clean

$(BIN)/arbiter: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,docs,dev]'
	touch $(BIN)/arbiter

setup: $(BIN)/arbiter

demo: setup
	$(BIN)/arbiter verify --check-expect replays/

test: setup
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis docs/_build
