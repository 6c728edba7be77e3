#!/usr/bin/env bash
# Installs Aider (aider-chat, pinned) into a venv of its own in the cache, once, for
# `npm run bench -- tasks --harness aider`. A ".complete" marker is written last: a venv without it
# (interrupted, failed) is removed and made again. Prints AIDER=<binary> as its last line (stdout);
# progress goes to stderr.
#
# The version is the one issue 39's first sample used. Aider pins its own dependencies (==) in its
# wheel's metadata; `pip freeze` of the venv is kept beside it (freeze.txt) to say what ran.
set -euo pipefail
AIDER_VERSION=0.86.2
CACHE="${FATHOM_CACHE:-$HOME/.cache/fathom}"
DIR="$CACHE/aider-chat-$AIDER_VERSION"
log() { echo "[install-aider] $*" >&2; }
fail() { log "$*"; exit 1; }

if [ -f "$DIR/.complete" ] && [ -x "$DIR/venv/bin/aider" ]; then echo "AIDER=$DIR/venv/bin/aider"; exit 0; fi
mkdir -p "$CACHE" || fail "cannot create the cache folder $CACHE: set FATHOM_CACHE to a writable folder."
exec 9>"$CACHE/.aider.lock"
if ! flock -n 9; then log "another install of Aider into $CACHE is running; waiting for it"; flock 9; fi
if [ -f "$DIR/.complete" ] && [ -x "$DIR/venv/bin/aider" ]; then echo "AIDER=$DIR/venv/bin/aider"; exit 0; fi

# Aider 0.86 supports Python 3.10-3.12.
PY=""
for candidate in python3.12 python3.11 python3.10 python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(not ((3, 10) <= sys.version_info[:2] <= (3, 12)))' 2>/dev/null; then PY="$candidate"; break; fi
done
[ -n "$PY" ] || fail "Aider $AIDER_VERSION needs Python 3.10-3.12, and none was found: install one (Debian/Ubuntu: sudo apt-get install python3.11-venv)."

rm -rf "$DIR"; mkdir -p "$DIR"
log "making a venv with $("$PY" --version) in $DIR/venv"
"$PY" -m venv "$DIR/venv" >"$DIR/install.log" 2>&1 || { tail -n 20 "$DIR/install.log" >&2; fail "could not make a venv (Debian/Ubuntu: sudo apt-get install python3-venv)."; }
log "installing aider-chat==$AIDER_VERSION from PyPI (about 2 minutes; log: $DIR/install.log)"
start=$SECONDS
"$DIR/venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off "aider-chat==$AIDER_VERSION" >>"$DIR/install.log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  sleep 15; kill -0 "$pid" 2>/dev/null && log "  still installing: $((SECONDS - start)) s, $(grep -c '^Collecting' "$DIR/install.log" || true) packages collected"
done
if ! wait "$pid"; then
  tail -n 20 "$DIR/install.log" | sed 's/^/    /' >&2
  rm -rf "$DIR/venv"
  fail "installing aider-chat==$AIDER_VERSION failed (see above and $DIR/install.log); run this again once fixed."
fi
"$DIR/venv/bin/python" -m pip freeze >"$DIR/freeze.txt" 2>/dev/null || true
"$DIR/venv/bin/aider" --version >"$DIR/version.txt" 2>&1 || fail "the installed aider does not start (see $DIR/version.txt)."
touch "$DIR/.complete"
log "Aider is ready in $((SECONDS - start)) s: $(cat "$DIR/version.txt" | tail -n1)"
echo "AIDER=$DIR/venv/bin/aider"
