#!/usr/bin/env bash
# Sourced by the other scripts: puts Node 24 on PATH. Where the machine's Node is older, Node 24
# is installed once from the npm registry's platform package (node-<os>-<arch>, no install
# scripts needed) into .tools/node, which git ignores.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_MAJOR=24
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if command -v node >/dev/null 2>&1 && [ "$(node_major node)" -ge "$NODE_MAJOR" ]; then
  :
else
  tools="$ROOT/.tools/node"
  os="$(uname -s | tr '[:upper:]' '[:lower:]')"
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) arch="$(uname -m)" ;; esac
  pkg="node-$os-$arch"
  bin="$tools/node_modules/$pkg/bin"
  if [ ! -x "$bin/node" ] || [ "$(node_major "$bin/node")" -lt "$NODE_MAJOR" ]; then
    echo "› installing Node $NODE_MAJOR ($pkg) into .tools/node" >&2
    mkdir -p "$tools"
    [ -f "$tools/package.json" ] || echo '{"name":"tools-node","private":true}' > "$tools/package.json"
    (cd "$tools" && npm install --no-save --no-package-lock --loglevel=error "$pkg@$NODE_MAJOR" >&2)
  fi
  export PATH="$bin:$PATH"
fi
export PATH="$ROOT/node_modules/.bin:$PATH"
