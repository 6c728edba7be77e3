// Issue 34: the runner's protocol as the action speaks it, and the environment it leaves for
// the agent's commands.
import assert from "node:assert/strict";
import { test } from "node:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readInput, runnerLog, scrubEnvironment, setOutput } from "../../../src/action/runnerIo";

test("inputs are read as the runner names them; outputs take any value", () => {
  assert.equal(readInput({ "INPUT_API-KEY": "  k  " }, "api-key"), "k");
  assert.equal(readInput({ INPUT_MY_INPUT: "v" }, "my input"), "v");
  assert.equal(readInput({}, "label"), "");
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-out-"));
  const file = path.join(dir, "out");
  setOutput({ GITHUB_OUTPUT: file }, "summary", "two\nlines");
  const text = readFileSync(file, "utf8");
  const m = /^summary<<(fathom_[\w-]+)\ntwo\nlines\n\1\n$/.exec(text);
  assert.ok(m, text);
  rmSync(dir, { recursive: true, force: true });
});

test("credentials, inputs and any variable holding a secret leave the environment; the rest stays", () => {
  const env: NodeJS.ProcessEnv = {
    PATH: "/bin",
    GITHUB_TOKEN: "ghs_x",
    "INPUT_API-KEY": "sk-secret-1",
    INPUT_LABEL: "fathom",
    ACTIONS_RUNTIME_TOKEN: "r",
    OPENAI_API_KEY: "o",
    NPM_URL: "https://u:sk-secret-1@host",
    GITHUB_REPOSITORY: "o/r",
  };
  scrubEnvironment(env, ["sk-secret-1", "ghs_x"]);
  assert.deepEqual(Object.keys(env).sort(), ["GITHUB_REPOSITORY", "PATH"]);
});

test("log lines never carry a secret, and mask commands come one per line", () => {
  let out = "";
  const log = runnerLog(
    (t) => (out += t),
    () => ["sk-secret-1"],
  );
  log.mask("sk-secret-1");
  log.info("key sk-secret-1 used");
  log.error("failed with sk-secret-1 at 100%\nsecond line");
  assert.equal(out, "::add-mask::sk-secret-1\nkey *** used\n::error::failed with *** at 100%25%0Asecond line\n");
});
