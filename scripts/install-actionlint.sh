#!/usr/bin/env bash
# actionlint (github.com/rhysd/actionlint), which checks action.yml's workflows in
# examples/github/, built with Go into a cache outside the clone, once (like code-server:
# ~/.cache/fathom, or FATHOM_CACHE). Prints the binary's path. Later runs find it and return.
set -euo pipefail
version="${FATHOM_ACTIONLINT_VERSION:-v1.7.12}"
cache="${FATHOM_CACHE:-$HOME/.cache/fathom}"
dir="$cache/actionlint-$version"
bin="$dir/bin/actionlint"
if [[ -x "$bin" && -f "$dir/.complete" ]]; then
  echo "$bin"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "install-actionlint: Go is not installed (https://go.dev/dl/); actionlint $version is built from its Go module." >&2
  exit 1
fi
mkdir -p "$dir"
# Go's module and build caches go beside the binary, so a cold run needs nothing else and
# leaves nothing in the clone or the person's Go folders.
GOBIN="$dir/bin" GOMODCACHE="$dir/gomod" GOCACHE="$dir/gobuild" GOFLAGS=-modcacherw GOTOOLCHAIN=local \
  go install "github.com/rhysd/actionlint/cmd/actionlint@$version" >&2
rm -rf "$dir/gobuild"
"$bin" -version >/dev/null
touch "$dir/.complete"
echo "$bin"
