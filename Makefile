# Xuezhan developer commands. Everything runs inside .venv, installed from the hash-locked
# requirements.lock / requirements-dev.lock (make lock writes them from pyproject.toml).
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON_BOOTSTRAP ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
# Every dependency by its exact version and the hashes of its files; then the project itself.
PIP_LOCKED := $(PIP) install --disable-pip-version-check -q --require-hashes -r
PIP_PROJECT := $(PIP) install --disable-pip-version-check -q --no-deps -e .
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: help venv install install-dev run test lint format bench load lock clean messages

help:
	@echo "make run        install, migrate, demo data, serve on http://$(HOST):$(PORT)"
	@echo "make test       install dev extras and run the test suite (pytest)"
	@echo "make lint       ruff check + ruff format --check + the import layers (lint-imports)"
	@echo "make format     ruff format + ruff check --fix"
	@echo "make bench      run every tests/bench/bench_*.py script"
	@echo "make load       a minute of load on gunicorn + PostgreSQL + a worker, then checks"
	@echo "make messages   collect the strings people read into pages/locale (then fill every msgstr)"
	@echo "make lock       resolve pyproject.toml into the hash-locked requirements*.lock (UPGRADE=1: newest)"

$(PY):
	$(PYTHON_BOOTSTRAP) -m venv $(VENV)

venv: $(PY)

# Stamp files: re-install only when the project metadata or the locks change.
$(VENV)/.stamp-install: $(PY) pyproject.toml requirements.lock
	$(PIP_LOCKED) requirements.lock
	$(PIP_PROJECT)
	@touch $@

$(VENV)/.stamp-dev: $(PY) pyproject.toml requirements-dev.lock
	$(PIP_LOCKED) requirements-dev.lock
	$(PIP_PROJECT)
	@touch $@ $(VENV)/.stamp-install

install: $(VENV)/.stamp-install
install-dev: $(VENV)/.stamp-dev

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py collectstatic --noinput -v 0
	@echo "Serving http://$(HOST):$(PORT)/ (ASGI: pages, API and the live pages' streams; Ctrl-C stops)"
	$(PY) -m uvicorn config.asgi:application --host $(HOST) --port $(PORT) --no-access-log

test: install-dev
	$(PY) -m pytest $(PYTEST_ARGS)

messages: install-dev
	$(PY) manage.py makemessages -l zh_Hans -i '.venv/*' -i 'tests/*' -i 'staticfiles/*' --no-obsolete
	$(PY) manage.py compilemessages -l zh_Hans -i .venv -i staticfiles -v 0

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: install-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: install-dev
	@shopt -s nullglob; scripts=(tests/bench/bench_*.py); \
	if [ $${#scripts[@]} -eq 0 ]; then echo "no benchmark scripts in tests/bench/"; exit 0; fi; \
	for script in "$${scripts[@]}"; do \
		echo "== $$script"; \
		DJANGO_SETTINGS_MODULE=config.settings PYTHONPATH=. $(PY) "$$script" || exit $$?; \
	done

# A minute of scorers and readers against gunicorn, PostgreSQL (127.0.0.1:5432, a database
# xuezhan_load of its own) and a Celery worker (Redis 127.0.0.1:6379/5); never part of make
# test. LOAD_ARGS: e.g. "--seconds 20 --scorers 10" (python -m tests.load.run --help).
load: install-dev
	$(PY) -m tests.load.run $(LOAD_ARGS)

# Resolve the ranges in pyproject.toml into the two hash-locked files: the development one
# first, then the runtime one held to the same versions (the image installs it). Pins already
# in the files are kept; UPGRADE=1 takes the newest releases the ranges allow.
PIP_TOOLS := pip-tools==7.7.0
LOCK_FLAGS := -q --allow-unsafe --generate-hashes --no-emit-index-url --no-emit-find-links \
	--strip-extras $(if $(UPGRADE),--upgrade)
lock:
	rm -rf .venv-lock
	$(PYTHON_BOOTSTRAP) -m venv .venv-lock
	.venv-lock/bin/pip install --disable-pip-version-check -q $(PIP_TOOLS)
	.venv-lock/bin/pip-compile $(LOCK_FLAGS) --extra dev -o requirements-dev.lock pyproject.toml
	.venv-lock/bin/pip-compile $(LOCK_FLAGS) -c requirements-dev.lock -o requirements.lock pyproject.toml
	rm -rf .venv-lock

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache *.egg-info
