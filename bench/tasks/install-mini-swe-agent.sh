#!/usr/bin/env bash
# Installs mini-swe-agent (pinned, every package checked against its hash) into a venv of its own
# in the cache, once, for `npm run bench -- tasks --harness mini`. Prints MINI=<binary> as its last
# line (stdout); progress goes to stderr. The steps shared with the other harness installers (the
# cache folder, its lock and ".complete" marker, progress lines) are in install-lib.sh.
#
# mini-swe-agent-requirements.txt beside this script pins mini-swe-agent and all it needs, each
# with the SHA-256 of its wheel for CPython 3.11 on x86-64 Linux (made with `pip download` and
# `pip hash`), so this needs Python 3.11; pip installs with --require-hashes --only-binary :all:.
# `pip freeze` of the venv is kept beside it (freeze.txt) to say what ran.
set -euo pipefail
MINI_VERSION=2.4.6
NAME=mini-swe-agent
HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=install-lib.sh
. "$HERE/install-lib.sh"
REQUIREMENTS="$HERE/mini-swe-agent-requirements.txt"
DIR="$CACHE/mini-swe-agent-$MINI_VERSION"
BIN="$DIR/venv/bin/mini"
install_start MINI "$BIN"

# The hashes are those of the CPython 3.11 wheels.
install_python 3.11 3.11 || fail "mini-swe-agent's pinned wheels (bench/tasks/mini-swe-agent-requirements.txt) are for Python 3.11, and none was found: install it (Debian/Ubuntu: sudo apt-get install python3.11-venv)."
install_venv
install_pinned "mini-swe-agent==$MINI_VERSION" "$REQUIREMENTS"
"$DIR/venv/bin/python" -m pip freeze >"$DIR/freeze.txt" 2>/dev/null || true
# Its first start prints a banner and reads a global .env; nothing is written outside $DIR here.
MSWEA_GLOBAL_CONFIG_DIR="$DIR/config" "$DIR/venv/bin/python" -c 'import minisweagent; print(minisweagent.__version__)' >"$DIR/version.txt" 2>&1 \
  || fail "the installed mini-swe-agent does not start (see $DIR/version.txt)."
install_finish MINI "$BIN"
