# Two entry points: `make demo` (main job on bundled data) and `make test` (whole suite).
# Each creates .venv with the interpreter in $(PYTHON) and installs what it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test browser lint typecheck bench clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-runtime: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@ $(VENV)/.installed-runtime

demo: $(VENV)/.installed-runtime
	$(BIN)/assay demo

# The HTML browser test needs Chromium + chromedriver: installed here when missing (as root,
# Debian packages), else one line says what to install.
browser:
	@bash tools/ensure_browser.sh

test: browser $(VENV)/.installed-test
	$(BIN)/python -m ruff check src tests bench
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-test
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) assay-demo .pytest_cache .mypy_cache .ruff_cache
