#!/usr/bin/env bash
# The whole test suite, as CI runs it (`npm test`): installs what is missing (Node 24, npm
# packages; Kafka and SecantusDB on first use), then type check, lint, build, unit and integration
# tests on real servers. Ends with one "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install.sh
source scripts/node-env.sh
mkdir -p .run

step() { printf '\n== %s\n' "$1"; }
step "type check (tsc --noEmit)"
tsc --noEmit -p .
step "lint (prettier --check, eslint)"
prettier --check . >/dev/null || { echo "Prettier would reformat the files above: run \`npm run format\` and commit" >&2; exit 1; }
eslint --max-warnings=0 .
step "build (tsc -p tsconfig.build.json; the client package: client/tsconfig.json, its example against the built package)"
rm -rf dist client/dist && tsc -p tsconfig.build.json
tsc -p client/tsconfig.json && tsc -p client/tsconfig.example.json
step "tests (vitest: unit, then integration on real Kafka and MongoDB-wire servers)"
status=0
vitest run --reporter=default --reporter=json --outputFile.json=.run/vitest-report.json "$@" || status=$?
node -e '
  const r = JSON.parse(require("node:fs").readFileSync(".run/vitest-report.json", "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
  if (r.numTotalTests === 0) { console.log("no test ran"); process.exit(1); }
' || status=1
exit "$status"
