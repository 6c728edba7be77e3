import { test } from "node:test";
import assert from "node:assert/strict";
import { StateBackend } from "../../../src/core/backends/state";
import { detectTestCommand, shellWord } from "../../../src/core/tools/testCommandDetection";

const pkg = (test: string) => JSON.stringify({ scripts: { test } });
const detect = (files: Record<string, string>, options: Parameters<typeof detectTestCommand>[1] = {}) =>
  detectTestCommand(new StateBackend(files), { platform: "linux", ...options }).then((c) => c?.command);

test("package.json's test script: npm test, pnpm or yarn by lockfile; npm's placeholder is no script", async () => {
  assert.equal(await detect({ "/package.json": pkg("vitest run") }), "npm test");
  assert.equal(await detect({ "/package.json": pkg("jest"), "/pnpm-lock.yaml": "" }), "pnpm test");
  assert.equal(await detect({ "/package.json": pkg("jest"), "/yarn.lock": "" }), "yarn test");
  assert.equal(await detect({ "/package.json": pkg('echo "Error: no test specified" && exit 1') }), undefined);
  assert.equal(await detect({ "/package.json": "{ not json" }), undefined);
});

test("a pattern reaches each JavaScript runner in its own words", async () => {
  const p = { pattern: "adds two" };
  assert.equal(await detect({ "/package.json": pkg("jest --ci") }, p), "npm test -- -t 'adds two'");
  assert.equal(await detect({ "/package.json": pkg("vitest run") }, p), "npm test -- -t 'adds two'");
  assert.equal(await detect({ "/package.json": pkg("mocha"), "/yarn.lock": "" }, p), "yarn test --grep 'adds two'");
  // Node's runner takes no name after its files: its own command runs with the flag.
  assert.equal(
    await detect({ "/package.json": pkg("node --import tsx --test test/*.test.ts") }, { pattern: "adds" }),
    "node --import tsx --test --test-name-pattern=adds test/*.test.ts",
  );
  assert.equal(await detect({ "/package.json": pkg("node scripts/test.mjs") }, p), "npm test -- 'adds two'");
});

test("pytest: its config files, conftest.py or test files; a pattern is -k; a .venv's python", async () => {
  assert.equal(await detect({ "/pytest.ini": "" }), "python3 -m pytest -q");
  assert.equal(await detect({ "/pyproject.toml": "[tool.pytest.ini_options]\n" }), "python3 -m pytest -q");
  assert.equal(await detect({ "/setup.cfg": "[tool:pytest]\n" }), "python3 -m pytest -q");
  assert.equal(await detect({ "/tox.ini": "[pytest]\n" }), "python3 -m pytest -q");
  assert.equal(await detect({ "/src/pkg/leap_test.py": "" }, { pattern: "leap" }), "python3 -m pytest -q -k leap");
  assert.equal(await detect({ "/tests/test_x.py": "", "/.venv/bin/python": "" }), ".venv/bin/python -m pytest -q");
  assert.equal(await detect({ "/conftest.py": "" }, { platform: "win32" }), "python -m pytest -q");
  assert.equal(await detect({ "/pyproject.toml": "[project]\n", "/.venv/lib/site-packages/test_x.py": "" }), undefined);
});

test("go.mod and Cargo.toml, with their filters", async () => {
  assert.equal(await detect({ "/go.mod": "module m\n" }), "go test ./...");
  assert.equal(await detect({ "/go.mod": "" }, { pattern: "TestAdd" }), "go test ./... -run TestAdd");
  assert.equal(await detect({ "/Cargo.toml": "" }, { pattern: "tests::adds" }), "cargo test tests::adds");
});

test("the configured command wins, a pattern added as one argument; nothing found is undefined", async () => {
  const files = { "/package.json": pkg("jest"), "/go.mod": "" };
  const found = await detectTestCommand(new StateBackend(files), { configured: " make check " });
  assert.deepEqual(found, { command: "make check", source: "the fathom.testCommand setting" });
  assert.equal(await detect(files, { configured: "make check", pattern: "a b" }), "make check 'a b'");
  assert.equal(await detect({ "/README.md": "" }), undefined);
});

test("shellWord quotes what a shell would read differently", () => {
  assert.equal(shellWord("TestAdd/sub-1"), "TestAdd/sub-1");
  assert.equal(shellWord("it's $HOME"), `'it'\\''s $HOME'`);
});
