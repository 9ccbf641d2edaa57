#!/usr/bin/env bash
# Installs Node 24 (when needed) and the npm dependencies exactly as locked. Skips `npm ci` when
# node_modules already matches the lock file, so a second run costs a second, not a minute.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/node-env.sh"
cd "$ROOT"
stamp="node_modules/.install-stamp"
lock_sum="$(sha256sum package-lock.json | cut -d' ' -f1)-$(node --version)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_sum" ]; then
  echo "› npm ci (node $(node --version))" >&2
  npm ci --loglevel=error >&2
  echo "$lock_sum" > "$stamp"
fi
