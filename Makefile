# Two entry points: `make demo` (main job on bundled data) and `make test` (whole suite).
# Each creates .venv with the interpreter in $(PYTHON) and installs what it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test browser litellm lint typecheck bench clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-runtime: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@ $(VENV)/.installed-runtime

# The LiteLLM proxy that tests/test_judge_litellm.py starts on 127.0.0.1 (mock_response
# models, no upstream): in a virtual environment of its own, as its dependencies are many
# and pinned apart from assay's. The tests find it at $(LITELLM_VENV)/bin/litellm.
LITELLM_VENV ?= .venv-litellm
LITELLM_PINS := 'litellm[proxy]==1.108.7' 'prisma==0.15.0'

$(LITELLM_VENV)/.installed: Makefile
	$(PYTHON) -m venv $(LITELLM_VENV)
	$(LITELLM_VENV)/bin/python -m pip install --quiet $(LITELLM_PINS)
	touch $@

litellm: $(LITELLM_VENV)/.installed

demo: $(VENV)/.installed-runtime
	$(BIN)/assay demo

# The HTML browser test needs Chromium + chromedriver: installed here when missing (as root,
# Debian packages), else one line says what to install.
browser:
	@bash tools/ensure_browser.sh

test: browser $(VENV)/.installed-test $(LITELLM_VENV)/.installed
	$(BIN)/python -m ruff check src tests bench
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-test
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) $(LITELLM_VENV) assay-demo .pytest_cache .mypy_cache .ruff_cache
