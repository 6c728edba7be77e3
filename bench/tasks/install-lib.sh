# Shared by the bench's harness installers (install-aider.sh, install-mini-swe-agent.sh,
# install-peer-cli.sh); sourced, not run. Each harness is installed once into a folder of its own
# in the cache (FATHOM_CACHE, default ~/.cache/fathom); a ".complete" marker is written last, so a
# folder without it (interrupted, failed) is removed and made again. The installer prints
# VAR=<binary> as its last line (stdout); progress goes to stderr.
#
#   NAME=aider; DIR="$CACHE/..."               (the caller sets these, then:)
#   install_start VAR BIN        prints VAR=BIN and exits when DIR is complete; else takes the
#                                cache's lock for NAME, checks again, and empties DIR
#   install_step WHAT LOG CMD…   runs CMD with its output in LOG and a line every 15 s; on failure
#                                the log's tail, then returns 1
#   install_python MIN MAX       the first python3.X on PATH within MIN..MAX (e.g. 3.10 3.12): PY
#   install_venv                 a venv made with PY in DIR/venv
#   install_pinned WHAT REQS     pip installs REQS (every wheel pinned with its hash) into the venv;
#                                on failure removes the venv and says why (a hash that does not match)
#   install_finish VAR BIN       writes the marker, prints VAR=BIN
set -euo pipefail
CACHE="${FATHOM_CACHE:-$HOME/.cache/fathom}"
log() { echo "[install-$NAME] $*" >&2; }
fail() { log "$*"; exit 1; }

install_complete() { [ -f "$DIR/.complete" ] && [ -x "$1" ]; }

install_start() {
  local var="$1" bin="$2"
  if install_complete "$bin"; then echo "$var=$bin"; exit 0; fi
  mkdir -p "$CACHE" || fail "cannot create the cache folder $CACHE: set FATHOM_CACHE to a writable folder."
  command -v flock >/dev/null || fail "flock is missing: install util-linux (apt-get install util-linux)."
  exec 9>"$CACHE/.$NAME.lock"
  if ! flock -n 9; then log "another install of $NAME into $CACHE is running; waiting for it"; flock 9; fi
  if install_complete "$bin"; then echo "$var=$bin"; exit 0; fi
  rm -rf "$DIR"; mkdir -p "$DIR"
}

install_step() {
  local what="$1" logfile="$2"; shift 2
  log "$what (log: $logfile)"
  local start=$SECONDS
  "$@" >>"$logfile" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for _ in $(seq 15); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    # pip says "Collecting" once a package; npm says nothing until it is done.
    kill -0 "$pid" 2>/dev/null && log "  still going: $((SECONDS - start)) s$(grep -q '^Collecting' "$logfile" && echo ", $(grep -c '^Collecting' "$logfile") packages collected")"
  done
  if wait "$pid"; then log "  done in $((SECONDS - start)) s"; return 0; fi
  tail -n 20 "$logfile" | sed 's/^/    /' >&2
  return 1
}

install_python() {
  local min="$1" max="$2" candidate
  PY=""
  for candidate in python3.12 python3.11 python3.10 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c "import sys; v = sys.version_info[:2]; sys.exit(not (tuple(map(int, '$min'.split('.'))) <= v <= tuple(map(int, '$max'.split('.')))))" 2>/dev/null; then
      PY="$candidate"; return 0
    fi
  done
  return 1
}

install_venv() {
  log "making a venv with $("$PY" --version) in $DIR/venv"
  "$PY" -m venv "$DIR/venv" >"$DIR/install.log" 2>&1 || { tail -n 20 "$DIR/install.log" >&2; fail "could not make a venv (Debian/Ubuntu: sudo apt-get install python3-venv)."; }
}

install_pinned() {
  local what="$1" requirements="$2"
  if install_step "installing $what and $(($(grep -c '^[A-Za-z]' "$requirements") - 1)) pinned packages from PyPI, hashes checked" "$DIR/install.log" \
    "$DIR/venv/bin/python" -m pip install --require-hashes --only-binary :all: --disable-pip-version-check --no-input --progress-bar off -r "$requirements"; then
    return 0
  fi
  rm -rf "$DIR/venv"
  if grep -qE 'THESE PACKAGES DO NOT MATCH THE HASHES' "$DIR/install.log"; then
    fail "a package from PyPI does not match its pinned hash (see above): check pip's index (PIP_INDEX_URL) serves the real PyPI files."
  fi
  fail "installing $what failed (see above and $DIR/install.log); run this again once fixed."
}

install_finish() {
  local var="$1" bin="$2"
  touch "$DIR/.complete"
  log "$NAME is ready: $(tail -n1 "$DIR/version.txt" 2>/dev/null || true)"
  echo "$var=$bin"
}
