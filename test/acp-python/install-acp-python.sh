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
if ! install_step "installing agent-client-protocol==$ACP_PY_VERSION and $(($(grep -c '^[A-Za-z]' "$REQUIREMENTS") - 1)) pinned packages from PyPI, hashes checked" "$DIR/install.log" \
  "$DIR/venv/bin/python" -m pip install --require-hashes --only-binary :all: --disable-pip-version-check --no-input --progress-bar off -r "$REQUIREMENTS"; then
  rm -rf "$DIR/venv"
  if grep -qE 'THESE PACKAGES DO NOT MATCH THE HASHES' "$DIR/install.log"; then
    fail "a package from PyPI does not match its pinned hash (see above): check pip's index (PIP_INDEX_URL) serves the real PyPI files."
  fi
  fail "installing agent-client-protocol==$ACP_PY_VERSION failed (see above and $DIR/install.log); run this again once fixed."
fi
"$DIR/venv/bin/python" -c 'import importlib.metadata as m; print("agent-client-protocol", m.version("agent-client-protocol"))' >"$DIR/version.txt" 2>&1 \
  || fail "the installed ACP SDK does not import (see $DIR/version.txt)."
install_finish ACP_PYTHON "$BIN"
