#!/usr/bin/env bash
# One command to run the service (`npm start`). Installs what is missing and, unless
# KAFKA_BROKERS/MONGO_URL name servers to use, starts local Kafka and SecantusDB and loads demo
# data once. Then runs the projector and the API until Ctrl-C or SIGTERM, and then stops them and
# the local servers this run started (KEEP_LOCAL_SERVERS=1 keeps those running for the next start).
set -euo pipefail
# A terminal or pipe that goes away must not kill this script before its cleanup has stopped
# everything it started: writes to it fail (EPIPE) instead.
trap '' PIPE
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install.sh
source scripts/node-env.sh
# Everything runs from the sources (Node 24 runs TypeScript; `npm test` builds dist/ and the
# image runs that): compiling here would take CPU from the demo's publish and bootstrap, which
# share the machine (docs/performance.md has the demo's timeline).
if [ -z "${KAFKA_BROKERS:-}" ] || [ -z "${MONGO_URL:-}" ]; then
  local_servers=1
  # infra/ finds .tools and .run relative to itself. Captured first so that a failed start
  # stops this script.
  endpoints="$(node infra/cli.ts start)"
  eval "$(printf '%s\n' "$endpoints" | sed 's/^/export /')"
else
  local_servers=0
fi

if [ "$local_servers" = 1 ] && [ "${DEMO_DATA:-1}" = 1 ]; then
  # Published once: a topic that already holds events is left as it is. 500,000 events are a
  # federation of realistic size (about 51,000 persons, 2,100 competitions, 1,250 clubs); the
  # projector bootstraps the empty read model from them and prints its progress.
  node generator/cli.ts --seed "${DEMO_SEED:-2026}" --events "${DEMO_EVENTS:-500000}" --kafka \
    --brokers "$KAFKA_BROKERS" --topic "${KAFKA_TOPIC:-federation.events.v1}" --if-empty
fi

mkdir -p .run
pids=()
view_pids=()
view_fifo=""
cleanup() {
  trap - INT TERM EXIT
  if [ "${#pids[@]}" -gt 0 ]; then
    kill -TERM "${pids[@]}" 2>/dev/null || true
    # The services exit within their own 20 s grace period; this is the backstop should one not.
    for _ in $(seq 1 250); do
      alive=0
      for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
      [ "$alive" = 0 ] && break
      sleep 0.1
    done
    kill -KILL "${pids[@]}" 2>/dev/null || true
  fi
  [ "${#view_pids[@]}" -gt 0 ] && kill "${view_pids[@]}" 2>/dev/null
  wait 2>/dev/null || true
  [ -n "$view_fifo" ] && rm -f "$view_fifo"
  if [ "${local_servers:-0}" = 1 ] && [ "${KEEP_LOCAL_SERVERS:-0}" != 1 ] && [ -n "${LOCAL_SERVERS_STARTED:-}" ]; then
    node infra/cli.ts stop "$LOCAL_SERVERS_STARTED" || true
  fi
}
trap cleanup INT TERM EXIT
# The services write to their log files, never to this terminal, so whatever becomes of the
# terminal (closed, piped into a pager that stopped reading) cannot hold up their writes or their
# stop; `tail` and the pretty printer show the files here and are the only ones to fail if the
# terminal goes. The files keep pino's JSON lines (as production does); the terminal shows each
# as one line of time, level, process and message, then its other fields (pino-pretty). Both
# readers are this script's own children, through a FIFO, so the cleanup stops and waits for each.
touch .run/projector.log .run/api.log
view_fifo=".run/log-view.$$.fifo"
rm -f "$view_fifo" && mkfifo "$view_fifo"
pino-pretty --singleLine --translateTime 'SYS:HH:MM:ss.l' --ignore service,pid,hostname < "$view_fifo" &
view_pids+=($!)
tail -q -n 0 -F .run/projector.log .run/api.log > "$view_fifo" &
view_pids+=($!)
# The projector's heap cap keeps the demo's bootstrap (a rebuild) under 512 MB (projector/memoryBound.ts).
node $(cat scripts/projector.node-flags) projector/main.ts >> .run/projector.log 2>&1 &
pids+=($!)
# The API's heap cap keeps an instance under 512 MB beside its cache and rate limiter (api/memoryBound.ts).
node $(cat scripts/api.node-flags) api/main.ts >> .run/api.log 2>&1 &
pids+=($!)

url="${API_PUBLIC_URL:-http://127.0.0.1:${API_PORT:-8080}}"
for _ in $(seq 1 120); do
  if curl -fsS "$url/health/ready" >/dev/null 2>&1; then
    { cat >&2 <<MSG

  The API is ready:  $url${API_BASE_PATH:-/api/v1}/competitions
  Health:            $url/health/ready
  Metrics:           http://127.0.0.1:${API_OPS_PORT:-9464}/metrics (API), http://127.0.0.1:${PROJECTOR_OPS_PORT:-9465}/metrics (projector)
  Logs:              .run/api.log, .run/projector.log   (Ctrl-C stops all this started)

MSG
    } || true
    break
  fi
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "a process exited during start-up; see .run/*.log" >&2 || true; exit 1; }; done
  sleep 1
done
wait -n "${pids[@]}"
