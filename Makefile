# Two entry points: `make demo` (main job on bundled data) and `make test` (whole suite).
# Each creates .venv with the interpreter in $(PYTHON) and installs what it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test lint typecheck bench clean

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

test: $(VENV)/.installed-test
	$(BIN)/python -m ruff check src tests bench
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-test
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) assay-demo .pytest_cache .mypy_cache .ruff_cache
