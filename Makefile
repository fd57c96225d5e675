# Turnierleiter: `make run` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PYTEST_ARGS ?=
# where make run listens (make run PORT=8001 when 8000 is taken)
PORT ?= 8000

.PHONY: install axe run test lint format bench migrate messages complexity clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(PY) manage.py migrate --noinput

# web (uvicorn, every interface, DEBUG off: DEBUG=1 make run for development)
# + Celery worker + beat on SQLite and the filesystem broker (no server needed);
# on the first start also the demo tournament and its login (printed)
# the port is checked before anything is printed or started
run: migrate
	$(PY) manage.py runall --demo-first-start 0.0.0.0:$(PORT)

# axe-core and the Nu HTML Checker (vnu.jar, run on the machine's Java) in
# tests/browser/axe, pinned by its lock file, when npm is there; without npm
# (or Java) the accessibility test is skipped for a missing service
AXE_STAMP := tests/browser/axe/node_modules/.installed-stamp
axe: $(AXE_STAMP)

$(AXE_STAMP): tests/browser/axe/package-lock.json
	@if command -v npm >/dev/null; then \
	  npm ci --prefix tests/browser/axe --no-audit --no-fund --silent && touch $@; fi

test: install axe
	CONN_MAX_AGE=0 $(PY) -m pytest -n auto --dist worksteal $(PYTEST_ARGS)

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: install
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

bench: install
	@for f in tests/bench/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

# the Django side's size figures (files over 600 lines, functions over 80 lines or
# of complexity over 25), then every function of complexity over 20 (radon ranks D-F)
complexity: install
	$(PY) tests/bench/code_size.py
	$(PY) -m radon cc --min D --show-complexity tournaments scoring --exclude "*/migrations/*"

# after changing translatable strings (needs GNU gettext); the .po/.mo files are committed
messages: install
	$(PY) manage.py makemessages -l de --ignore=.venv --ignore=var --ignore=tests --ignore=docker
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) var staticfiles tests/browser/axe/node_modules
