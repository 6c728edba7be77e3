#!/usr/bin/env bash
# Installs the Python ACP SDK (agent-client-protocol, pinned, every wheel checked against its hash)
# into a venv of its own in the cache, once: the independent client `fathom acp` is tested with
# (test/unit/cli/acpPythonClient.test.ts). Prints ACP_PYTHON=<the venv's python> as its last line
# (stdout); progress goes to stderr. The cache folder, its lock and ".complete" marker are the
# bench installers' (bench/tasks/install-lib.sh).
set -euo pipefail
ACP_PY_VERSION=0.12.1
NAME=acp-python
HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../../bench/tasks/install-lib.sh
. "$HERE/../../bench/tasks/install-lib.sh"
REQUIREMENTS="$HERE/requirements.txt"
DIR="$CACHE/acp-python-$ACP_PY_VERSION"
BIN="$DIR/venv/bin/python"
install_start ACP_PYTHON "$BIN"

install_python 3.11 3.11 || fail "the Python ACP SDK's pinned wheels (test/acp-python/requirements.txt) are for Python 3.11, and none was found: install it (Debian/Ubuntu: sudo apt-get install python3.11-venv)."
install_venv
install_pinned "agent-client-protocol==$ACP_PY_VERSION" "$REQUIREMENTS"
"$DIR/venv/bin/python" -c 'import importlib.metadata as m; print("agent-client-protocol", m.version("agent-client-protocol"))' >"$DIR/version.txt" 2>&1 \
  || fail "the installed ACP SDK does not import (see $DIR/version.txt)."
install_finish ACP_PYTHON "$BIN"
