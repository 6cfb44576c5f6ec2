# tcg-arbiter: `make demo` verifies the shipped corpus, `make test` runs every test.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test setup clean chromium graphviz compiled

$(BIN)/arbiter: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,docs,dev,cluster]'
	touch $(BIN)/arbiter

setup: $(BIN)/arbiter graphviz compiled

# The spec's hot modules compiled with mypyc into .build/compiled (spec/compiled.py says
# which, and when the build is used). Quick when nothing changed; without a C compiler it
# prints a note and the spec runs interpreted.
compiled: $(BIN)/arbiter
	@$(BIN)/python -m verifier.build_compiled || true

demo: setup
	$(BIN)/arbiter verify --check-expect replays/

test: setup chromium
	$(BIN)/python -m pytest -q
	ARBITER_INTERPRETED=1 $(BIN)/python -m pytest -q -m interpreted

# Debian's chromium for the browser test (tests/test_html_chromium.py): installed quietly
# when missing and run as root; otherwise a note (deselect that test with -m 'not browser').
chromium:
	@[ -x /usr/bin/chromium ] || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	  && DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null \
	  && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1; } \
	  || echo "note: /usr/bin/chromium is missing (install it as root: apt-get install chromium), or run pytest -m 'not browser'"

# Debian's graphviz: its `dot` draws the turn-structure diagrams of the docs (docs/conf.py).
# Installed quietly when missing and run as root; otherwise a note.
graphviz:
	@command -v dot >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	  && DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null \
	  && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null 2>&1; } \
	  || echo "note: Graphviz's dot is missing (install it as root: apt-get install graphviz); the docs build needs it"

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis docs/_build .build
