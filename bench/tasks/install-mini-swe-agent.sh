#!/usr/bin/env bash
# Installs mini-swe-agent (pinned, every package checked against its hash) into a venv of its own
# in the cache, once, for `npm run bench -- tasks --harness mini`. A ".complete" marker is written
# last: a venv without it (interrupted, failed) is removed and made again. Prints MINI=<binary> as
# its last line (stdout); progress goes to stderr.
#
# mini-swe-agent-requirements.txt beside this script pins mini-swe-agent and all it needs, each
# with the SHA-256 of its wheel for CPython 3.11 on x86-64 Linux (made with `pip download` and
# `pip hash`), so this needs Python 3.11; pip installs with --require-hashes --only-binary :all:.
# `pip freeze` of the venv is kept beside it (freeze.txt) to say what ran.
set -euo pipefail
MINI_VERSION=2.4.6
HERE="$(cd "$(dirname "$0")" && pwd)"
REQUIREMENTS="$HERE/mini-swe-agent-requirements.txt"
CACHE="${FATHOM_CACHE:-$HOME/.cache/fathom}"
DIR="$CACHE/mini-swe-agent-$MINI_VERSION"
log() { echo "[install-mini-swe-agent] $*" >&2; }
fail() { log "$*"; exit 1; }

if [ -f "$DIR/.complete" ] && [ -x "$DIR/venv/bin/mini" ]; then echo "MINI=$DIR/venv/bin/mini"; exit 0; fi
mkdir -p "$CACHE" || fail "cannot create the cache folder $CACHE: set FATHOM_CACHE to a writable folder."
exec 9>"$CACHE/.mini-swe-agent.lock"
if ! flock -n 9; then log "another install of mini-swe-agent into $CACHE is running; waiting for it"; flock 9; fi
if [ -f "$DIR/.complete" ] && [ -x "$DIR/venv/bin/mini" ]; then echo "MINI=$DIR/venv/bin/mini"; exit 0; fi

# The hashes are those of the CPython 3.11 wheels.
PY=""
for candidate in python3.11 python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then PY="$candidate"; break; fi
done
[ -n "$PY" ] || fail "mini-swe-agent's pinned wheels (bench/tasks/mini-swe-agent-requirements.txt) are for Python 3.11, and none was found: install it (Debian/Ubuntu: sudo apt-get install python3.11-venv)."

rm -rf "$DIR"; mkdir -p "$DIR"
log "making a venv with $("$PY" --version) in $DIR/venv"
"$PY" -m venv "$DIR/venv" >"$DIR/install.log" 2>&1 || { tail -n 20 "$DIR/install.log" >&2; fail "could not make a venv (Debian/Ubuntu: sudo apt-get install python3-venv)."; }
log "installing mini-swe-agent==$MINI_VERSION and $(grep -c '^[A-Za-z]' "$REQUIREMENTS") pinned packages from PyPI, hashes checked (about 2 minutes; log: $DIR/install.log)"
start=$SECONDS
"$DIR/venv/bin/python" -m pip install --require-hashes --only-binary :all: --disable-pip-version-check --no-input --progress-bar off \
  -r "$REQUIREMENTS" >>"$DIR/install.log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  sleep 15; kill -0 "$pid" 2>/dev/null && log "  still installing: $((SECONDS - start)) s, $(grep -c '^Collecting' "$DIR/install.log" || true) packages collected"
done
if ! wait "$pid"; then
  tail -n 20 "$DIR/install.log" | sed 's/^/    /' >&2
  rm -rf "$DIR/venv"
  if grep -qE 'THESE PACKAGES DO NOT MATCH THE HASHES' "$DIR/install.log"; then
    fail "a package from PyPI does not match its pinned hash (see above): check pip's index (PIP_INDEX_URL) serves the real PyPI files."
  fi
  fail "installing mini-swe-agent==$MINI_VERSION failed (see above and $DIR/install.log); run this again once fixed."
fi
"$DIR/venv/bin/python" -m pip freeze >"$DIR/freeze.txt" 2>/dev/null || true
# Its first start prints a banner and reads a global .env; nothing is written outside $DIR here.
MSWEA_GLOBAL_CONFIG_DIR="$DIR/config" "$DIR/venv/bin/python" -c 'import minisweagent; print(minisweagent.__version__)' >"$DIR/version.txt" 2>&1 \
  || fail "the installed mini-swe-agent does not start (see $DIR/version.txt)."
touch "$DIR/.complete"
log "mini-swe-agent is ready in $((SECONDS - start)) s: $(tail -n1 "$DIR/version.txt")"
echo "MINI=$DIR/venv/bin/mini"
