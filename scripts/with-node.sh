#!/usr/bin/env bash
# Runs a command with Node 24 and node_modules/.bin on PATH: `bash scripts/with-node.sh node x.ts args`.
# package.json scripts go through it because npm appends `-- args` to the script's text, where an
# inline `bash -c "... $@"` would have the outer shell expand `$@` to nothing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/node-env.sh"
exec "$@"
