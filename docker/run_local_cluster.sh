#!/usr/bin/env bash
# The docker-compose topology without Docker, for trying cross-worker play here:
# two daphne workers (127.0.0.1:8001 and :8002) behind nginx (127.0.0.1:8080),
# on the local PostgreSQL and Redis, with nginx's config made from
# docker/nginx/snowball.conf.
#
#   docker/run_local_cluster.sh           run until Ctrl-C, nginx dies or no worker is left
#   docker/run_local_cluster.sh --check   start, smoke-test through nginx, stop
#
# Environment (defaults in brackets):
#   DATABASE_URL   [postgres://postgres@127.0.0.1:5432/snowball_cluster], created if missing
#   REDIS_URL      [redis://127.0.0.1:6379/1]
#   PYTHON         [.venv/bin/python]; daphne is taken from the same bin/ folder
#   NGINX          [nginx]
#   SNOWBALL_CLUSTER_PORT [8080], SNOWBALL_WORKER_PORTS ["8001 8002"]
#   DJANGO_SECRET_KEY [a random one], DJANGO_ALLOWED_HOSTS [localhost,127.0.0.1]
# Logs go to a fresh folder under /tmp, named when the cluster is up.
# Everything started here is stopped when the script exits.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"

MODE="${1:-run}"
case "$MODE" in
    run | --check) ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
DAPHNE="$(dirname "$PYTHON")/daphne"
NGINX="${NGINX:-nginx}"
PORT="${SNOWBALL_CLUSTER_PORT:-8080}"
read -r -a WORKER_PORTS <<< "${SNOWBALL_WORKER_PORTS:-8001 8002}"

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/snowball_cluster}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/1}"
export DJANGO_SETTINGS_MODULE=snowball_site.settings
export DJANGO_DEBUG=0
export DJANGO_ALLOWED_HOSTS="${DJANGO_ALLOWED_HOSTS:-localhost,127.0.0.1}"
export SNOWBALL_TRUST_X_FORWARDED_FOR="${SNOWBALL_TRUST_X_FORWARDED_FOR:-1}"  # nginx sets X-Forwarded-For to the client's address
export DJANGO_SECRET_KEY="${DJANGO_SECRET_KEY:-$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')}"

RUN_DIR="$(mktemp -d /tmp/snowball-cluster.XXXXXX)"
PIDS=()

say() { echo "[cluster] $*" >&2; }

stop_all() {
    local pid
    trap - EXIT INT TERM
    for pid in "${PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.2
        done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    [ "${#PIDS[@]}" -eq 0 ] || say "stopped; logs are in $RUN_DIR"
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

need() {
    command -v "$1" >/dev/null 2>&1 || { say "$1 not found: $2"; exit 1; }
}

port_free() {
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

wait_for_port() {
    local port="$1" pid="$2" log="$3"
    for _ in $(seq 150); do
        if ! kill -0 "$pid" 2>/dev/null; then
            say "the process for port $port died; the end of $log:"
            tail -n 30 "$log" >&2
            exit 1
        fi
        port_free "$port" || return 0
        sleep 0.2
    done
    say "nothing answered on port $port within 30s; see $log"
    exit 1
}

need "$PYTHON" "set PYTHON to the project's virtualenv python (make install creates .venv)"
need "$DAPHNE" "install the project into the virtualenv of $PYTHON"
need "$NGINX" "apt-get install nginx, or set NGINX"
for port in "$PORT" "${WORKER_PORTS[@]}"; do
    port_free "$port" || { say "port $port is already in use"; exit 1; }
done

"$PYTHON" - <<'EOF'
import os
import sys

import dj_database_url
import psycopg
import redis
from psycopg import sql

try:
    redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=3).ping()
except redis.RedisError as error:
    sys.exit(f"[cluster] Redis at {os.environ['REDIS_URL']} does not answer: {error}")

db = dj_database_url.parse(os.environ["DATABASE_URL"])
if "postgresql" not in db["ENGINE"]:
    sys.exit("[cluster] DATABASE_URL must point at PostgreSQL, as in docker-compose.yml")
server = dict(host=db["HOST"] or None, port=db["PORT"] or None, user=db["USER"] or None,
              password=db["PASSWORD"] or None, dbname="postgres", autocommit=True)
try:
    with psycopg.connect(**server) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db["NAME"])))
            print(f"[cluster] created database {db['NAME']}", file=sys.stderr)
except psycopg.Error as error:
    sys.exit(f"[cluster] PostgreSQL for {os.environ['DATABASE_URL']} is unusable: {error}")
EOF

say "migrating and collecting static files"
"$PYTHON" manage.py migrate --noinput > "$RUN_DIR/migrate.log" 2>&1 \
    || { tail -n 30 "$RUN_DIR/migrate.log" >&2; exit 1; }
"$PYTHON" manage.py collectstatic --noinput --verbosity 0
STATIC_ROOT="$("$PYTHON" -c 'import django; django.setup(); from django.conf import settings; print(settings.STATIC_ROOT)')"

for port in "${WORKER_PORTS[@]}"; do
    "$DAPHNE" --bind 127.0.0.1 --port "$port" --proxy-headers \
        --access-log "$RUN_DIR/worker-$port.access.log" \
        snowball_site.asgi:application > "$RUN_DIR/worker-$port.log" 2>&1 &
    PIDS+=("$!")
done

mkdir -p "$RUN_DIR/nginx-temp"
awk -v ports="${WORKER_PORTS[*]}" -v port="$PORT" -v static="$STATIC_ROOT/" '
    /^[ \t]*upstream / { done = 0 }
    /^[ \t]*server web[0-9]+:8000/ {
        if (!done) {
            rest = $0
            sub(/^[ \t]*server web[0-9]+:8000/, "", rest)
            n = split(ports, p, " ")
            for (i = 1; i <= n; i++) printf "    server 127.0.0.1:%s%s\n", p[i], rest
            done = 1
        }
        next
    }
    /^[ \t]*listen 80;/ { print "    listen 127.0.0.1:" port ";"; next }
    /^[ \t]*alias \/srv\/static\/;/ { print "        alias " static ";"; next }
    { print }
' docker/nginx/snowball.conf > "$RUN_DIR/snowball.conf"
[ "$(id -u)" -eq 0 ] && NGINX_USER="user $(id -un) $(id -gn);" || NGINX_USER=""
cat > "$RUN_DIR/nginx.conf" <<EOF
$NGINX_USER
worker_processes 1;
daemon off;
pid $RUN_DIR/nginx.pid;
error_log $RUN_DIR/nginx.error.log warn;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    access_log $RUN_DIR/nginx.access.log;
    client_body_temp_path $RUN_DIR/nginx-temp/body;
    proxy_temp_path $RUN_DIR/nginx-temp/proxy;
    fastcgi_temp_path $RUN_DIR/nginx-temp/fastcgi;
    uwsgi_temp_path $RUN_DIR/nginx-temp/uwsgi;
    scgi_temp_path $RUN_DIR/nginx-temp/scgi;
    include $RUN_DIR/snowball.conf;
}
EOF
"$NGINX" -t -q -p "$RUN_DIR" -e "$RUN_DIR/nginx.error.log" -c "$RUN_DIR/nginx.conf"
"$NGINX" -p "$RUN_DIR" -e "$RUN_DIR/nginx.error.log" -c "$RUN_DIR/nginx.conf" > "$RUN_DIR/nginx.log" 2>&1 &
PIDS+=("$!")

for i in "${!WORKER_PORTS[@]}"; do
    wait_for_port "${WORKER_PORTS[$i]}" "${PIDS[$i]}" "$RUN_DIR/worker-${WORKER_PORTS[$i]}.log"
done
wait_for_port "$PORT" "${PIDS[-1]}" "$RUN_DIR/nginx.error.log"

if [ "$MODE" = "--check" ]; then
    say "up; smoke-testing through http://127.0.0.1:$PORT/"
    PYTHONPATH="$REPO" "$PYTHON" docker/cluster_check.py --url "http://127.0.0.1:$PORT" --run-dir "$RUN_DIR" \
        --worker-ports "${WORKER_PORTS[@]}"
    exit
fi

say "Snowball is up at http://localhost:$PORT/ (workers on ${WORKER_PORTS[*]}; logs in $RUN_DIR). Ctrl-C stops it."
# A worker may be killed on purpose to try failover; the rest carry on while nginx
# and at least one worker live.
declare -A NAMES
for i in "${!WORKER_PORTS[@]}"; do NAMES[${PIDS[$i]}]="worker ${WORKER_PORTS[$i]}"; done
NAMES[${PIDS[-1]}]="nginx"
running=("${PIDS[@]}")
while :; do
    status=0
    wait -n -p gone "${running[@]}" || status=$?
    say "${NAMES[$gone]} stopped (exit $status)"
    remaining=()
    for pid in "${running[@]}"; do [ "$pid" = "$gone" ] || remaining+=("$pid"); done
    running=("${remaining[@]}")
    if [ "${NAMES[$gone]}" = "nginx" ] || [ "${#running[@]}" -le 1 ]; then
        say "nothing left to serve; stopping"
        exit 1
    fi
done
