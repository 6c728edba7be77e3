#!/usr/bin/env bash
# Installs Aider (aider-chat, pinned) into a venv of its own in the cache, once, for
# `npm run bench -- tasks --harness aider`. Prints AIDER=<binary> as its last line (stdout);
# progress goes to stderr. The steps shared with the other harness installers (the cache folder,
# its lock and ".complete" marker, progress lines) are in install-lib.sh.
#
# The version is the one issue 39's first sample used. Aider pins its own dependencies (==) in its
# wheel's metadata; `pip freeze` of the venv is kept beside it (freeze.txt) to say what ran.
set -euo pipefail
AIDER_VERSION=0.86.2
NAME=aider
# shellcheck source=install-lib.sh
. "$(cd "$(dirname "$0")" && pwd)/install-lib.sh"
DIR="$CACHE/aider-chat-$AIDER_VERSION"
BIN="$DIR/venv/bin/aider"
install_start AIDER "$BIN"

# Aider 0.86 supports Python 3.10-3.12.
install_python 3.10 3.12 || fail "Aider $AIDER_VERSION needs Python 3.10-3.12, and none was found: install one (Debian/Ubuntu: sudo apt-get install python3.11-venv)."
install_venv
if ! install_step "installing aider-chat==$AIDER_VERSION from PyPI (about 2 minutes)" "$DIR/install.log" \
  "$DIR/venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off "aider-chat==$AIDER_VERSION"; then
  rm -rf "$DIR/venv"
  fail "installing aider-chat==$AIDER_VERSION failed (see above and $DIR/install.log); run this again once fixed."
fi
"$DIR/venv/bin/python" -m pip freeze >"$DIR/freeze.txt" 2>/dev/null || true
"$BIN" --version >"$DIR/version.txt" 2>&1 || fail "the installed aider does not start (see $DIR/version.txt)."
install_finish AIDER "$BIN"
