# Snowball: `make run` to play, `make test` to check everything. See README.md.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed
# Test processes (pytest-xdist): two, one a core of a 2-core machine; TEST_WORKERS=1 runs one.
TEST_WORKERS ?= 2

.PHONY: run test test-full-games install migrate redis bench-engines bench-live bench-live-redis bench-mix bench-each-table bench-step bench-submit probe-kill probe-redis probe-hostile probe-flood probe-db probe-soak clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(PY) manage.py migrate --noinput

# Served as a site, not a debugger: DJANGO_DEBUG=0 unless set, with a secret key made once and
# kept in .secret_key (`DJANGO_DEBUG=1 make run` shows Django's error pages instead).
run: migrate
	$(PY) manage.py collectstatic --noinput --verbosity 0
	@test -s .secret_key || $(PY) -c "import secrets; print(secrets.token_urlsafe(50))" > .secret_key
	@echo "Snowball is up: open http://$(HOST):$(PORT)/ (Ctrl-C to stop)"
	HOST=$(HOST) PORT=$(PORT) DJANGO_DEBUG=$${DJANGO_DEBUG:-0} DJANGO_SECRET_KEY=$${DJANGO_SECRET_KEY:-$$(cat .secret_key)} $(VENV)/bin/daphne -b $(HOST) -p $(PORT) snowball_site.asgi:application

# Starts a throwaway Redis on 6379 if none answers and redis-server is installed.
redis:
	@$(VENV)/bin/python -c "import redis,sys; redis.Redis.from_url('redis://127.0.0.1:6379/0').ping()" 2>/dev/null \
	  || (command -v redis-server >/dev/null && redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no && sleep 1) \
	  || echo "note: no Redis on 127.0.0.1:6379; the Redis tests will be skipped (set SNOWBALL_REQUIRE_REDIS=1 to fail instead)"

# Every test, then the database tests again on PostgreSQL when one answers (tests/on_postgres.py).
test: install redis
	$(PY) -m pytest -q $(if $(filter-out 1,$(TEST_WORKERS)),-n $(TEST_WORKERS)) $(PYTEST_ARGS)
	SNOWBALL_TEST_WORKERS=$(TEST_WORKERS) $(PY) -m tests.on_postgres

# Every test at full length: the browser flows play whole games to their natural end (What a
# Snowball!'s alone takes ten minutes or more) and each property test tries its full count.
test-full-games: install redis
	SNOWBALL_FULL_GAME_FLOWS=1 SNOWBALL_TEST_DEPTH=1 $(PY) -m pytest -q $(if $(filter-out 1,$(TEST_WORKERS)),-n $(TEST_WORKERS)) $(PYTEST_ARGS)
	SNOWBALL_TEST_DEPTH=1 SNOWBALL_TEST_WORKERS=$(TEST_WORKERS) $(PY) -m tests.on_postgres

# The reference runs of docs/performance.md (bench/README.md); BENCH_ARGS=... adds to a run's flags.
bench-engines: install
	$(PY) -m bench.engines --cpu --runs 3 $(BENCH_ARGS)

bench-live: install
	$(PY) -m bench.live --mode memory --games 250 --rate 300 --duration 60 --channels-floor $(BENCH_ARGS)

bench-live-redis: install
	$(PY) -m bench.live --mode redis --workers 2 --games 250 --rate 300 --duration 60 --channels-floor $(BENCH_ARGS)

bench-mix: install
	$(PY) -m bench.live --mode memory --mix --games 60 --rate 24 --duration 30 --channels-floor --out bench/results/live-memory-mix.json $(BENCH_ARGS)

bench-each-table: install
	$(PY) -m bench.live --mode memory --each-table --games 12 --rate 6 --duration 20 --warmup 5 --out bench/results/live-memory-each-table.json $(BENCH_ARGS)

bench-step: install
	$(PY) -m bench.step --mode memory $(BENCH_ARGS)

bench-submit: install
	$(PY) -m bench.submit $(BENCH_ARGS)

# Reliability probes against two workers behind nginx (docker/run_local_cluster.sh) on a
# Redis and a PostgreSQL of their own: docs/reliability.md. PROBE_ARGS=--save keeps the result.
probe-kill: install
	$(PY) -m bench.probes.kill_worker $(PROBE_ARGS)

probe-redis: install
	$(PY) -m bench.probes.redis_restart $(PROBE_ARGS)

probe-hostile: install
	$(PY) -m bench.probes.hostile $(PROBE_ARGS)

probe-flood: install
	$(PY) -m bench.probes.flood $(PROBE_ARGS)

probe-db: install
	$(PY) -m bench.probes.db_connections $(PROBE_ARGS)

probe-soak: install
	$(PY) -m bench.probes.soak $(PROBE_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .hypothesis
