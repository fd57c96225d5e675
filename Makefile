# Turnierleiter: `make run` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PYTEST_ARGS ?=
# where make run listens (make run PORT=8001 when 8000 is taken)
PORT ?= 8000

.PHONY: help install axe run test test-fast lint format bench migrate messages complexity clean

# `make help`: every target with the line after its `##`
help:
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## /  \1\t/' | expand -t 14

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP) ## create .venv and install the project with its dev tools

migrate: install ## apply the database migrations
	$(PY) manage.py migrate --noinput

# web (uvicorn, every interface, DEBUG off: DEBUG=1 make run for development)
# + Celery worker + beat on SQLite and the filesystem broker (no server needed);
# on the first start also the demo tournament and its login (printed)
# the port is checked before anything is printed or started
run: migrate ## the site, worker and beat on port 8000 (make run PORT=8001 elsewhere)
	$(PY) manage.py runall --demo-first-start 0.0.0.0:$(PORT)

# axe-core and the Nu HTML Checker (vnu.jar, run on the machine's Java) in
# tests/browser/axe, pinned by its lock file, when npm is there; without npm
# (or Java) the accessibility test is skipped for a missing service
AXE_STAMP := tests/browser/axe/node_modules/.installed-stamp
axe: $(AXE_STAMP) ## axe-core and the Nu HTML checker for the page walk (needs npm, Java)

$(AXE_STAMP): tests/browser/axe/package-lock.json
	@if command -v npm >/dev/null; then \
	  npm ci --prefix tests/browser/axe --no-audit --no-fund --silent && touch $@; fi

# the tests write their bytecode (in the ignored __pycache__/) even where the
# environment says not to: without it every worker compiles and assertion-rewrites
# every module again on each run (~7 s of CPU per worker in collection alone)
TEST_ENV := PYTHONDONTWRITEBYTECODE= CONN_MAX_AGE=0

test: install axe ## the whole test suite (PYTEST_ARGS=... passes options)
	$(TEST_ENV) $(PY) -m pytest -n auto --dist worksteal $(PYTEST_ARGS)

# all but the browser tests, the tests that start a server or another process,
# the long conformance cases and the slow ones (markers set in tests/conftest.py),
# each property test with a quarter of its examples (tests/examples.py)
test-fast: install ## all but browser, server/subprocess, conformance and slow tests; fewer examples
	$(TEST_ENV) $(PY) -m pytest -n auto --dist worksteal --hypothesis-profile=quick \
	  -m "not browser and not server and not conformance and not slow" $(PYTEST_ARGS)

lint: install ## ruff check and format check
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: install ## ruff format and fix
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

bench: install ## every benchmark in tests/bench/
	@for f in tests/bench/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

# the Django side's size figures (files over 600 lines, functions over 80 lines or
# of complexity over 25), then every function of complexity over 20 (radon ranks D-F)
complexity: install ## files, functions and complexity over the limits
	$(PY) tests/bench/code_size.py
	$(PY) -m radon cc --min D --show-complexity tournaments scoring --exclude "*/migrations/*"

# after changing translatable strings (needs GNU gettext); the .po/.mo files are committed
messages: install ## re-extract and compile the translations (GNU gettext)
	$(PY) manage.py makemessages -l de --ignore=.venv --ignore=var --ignore=tests --ignore=docker
	$(PY) manage.py compilemessages --ignore=.venv

clean: ## remove .venv, var/, staticfiles and axe-core
	rm -rf $(VENV) var staticfiles tests/browser/axe/node_modules
