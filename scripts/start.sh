#!/usr/bin/env bash
# One command to run the service (`npm start`). Installs what is missing, builds, and, unless
# KAFKA_BROKERS/MONGO_URL name servers to use, starts local Kafka and SecantusDB and loads demo
# data once. Then runs the projector and the API until Ctrl-C. The local servers keep running
# afterwards (`npm run infra -- stop` ends them).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install.sh
source scripts/node-env.sh
echo "› building" >&2
rm -rf dist && tsc -p tsconfig.build.json

if [ -z "${KAFKA_BROKERS:-}" ] || [ -z "${MONGO_URL:-}" ]; then
  local_servers=1
  # Run from the sources (Node 24 runs TypeScript): infra/ finds .tools and .run relative to
  # itself. Captured first so that a failed start stops this script.
  endpoints="$(node infra/cli.ts start)"
  eval "$(printf '%s\n' "$endpoints" | sed 's/^/export /')"
else
  local_servers=0
fi

if [ "$local_servers" = 1 ] && [ "${DEMO_DATA:-1}" = 1 ]; then
  # Published once: a topic that already holds events is left as it is. 500,000 events are a
  # federation of realistic size (about 51,000 persons, 2,100 competitions, 1,250 clubs); the
  # projector bootstraps the empty read model from them and prints its progress.
  node dist/generator/cli.js --seed "${DEMO_SEED:-2026}" --events "${DEMO_EVENTS:-500000}" --kafka \
    --brokers "$KAFKA_BROKERS" --topic "${KAFKA_TOPIC:-federation.events.v1}" --if-empty
fi

mkdir -p .run
pids=()
cleanup() {
  trap - INT TERM EXIT
  [ "${#pids[@]}" -gt 0 ] && kill -TERM "${pids[@]}" 2>/dev/null || true
  wait || true
}
trap cleanup INT TERM EXIT
node dist/projector/main.js > >(tee -a .run/projector.log) 2>&1 &
pids+=($!)
node dist/api/main.js > >(tee -a .run/api.log) 2>&1 &
pids+=($!)

url="${API_PUBLIC_URL:-http://127.0.0.1:${API_PORT:-8080}}"
for _ in $(seq 1 120); do
  if curl -fsS "$url/health/ready" >/dev/null 2>&1; then
    cat >&2 <<MSG

  The API is ready:  $url${API_BASE_PATH:-/api/v1}/competitions
  Health:            $url/health/ready
  Metrics:           http://127.0.0.1:${API_OPS_PORT:-9464}/metrics (API), http://127.0.0.1:${PROJECTOR_OPS_PORT:-9465}/metrics (projector)
  Logs:              .run/api.log, .run/projector.log   (Ctrl-C stops projector and API)

MSG
    break
  fi
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "a process exited during start-up; see .run/*.log" >&2; exit 1; }; done
  sleep 1
done
wait -n "${pids[@]}"
