import type { BackendProtocol } from "../backends/protocol";

/**
 * The workspace's test command, found the way a person would: a configured command
 * (`fathom.testCommand`) wins; then package.json's `scripts.test`, pytest's files, go.mod,
 * Cargo.toml, in that order. Read through the backend (the guard and `.fathomignore` hold), so a
 * file the agent may not read is not looked at. A pattern narrows the run to tests whose names
 * match, in each runner's own words (`-k`, `-run`, `-t`, a filter).
 */

export interface TestCommand {
  command: string;
  /** Where it came from, for the model ("package.json scripts.test"). */
  source: string;
}

/** What was looked for, for the message when nothing is found. */
export const LOOKED_FOR =
  "fathom.testCommand, a package.json `test` script, pytest (pytest.ini, pyproject.toml [tool.pytest], setup.cfg, tox.ini, conftest.py, test_*.py or *_test.py files), go.mod, Cargo.toml";

const MAX_CONFIG_BYTES = 256 * 1024;
/** npm's placeholder when `npm init` wrote no test script. */
const NO_TEST_SCRIPT = /no test specified/;

/** A shell word: left as it is when it is plain, else in single quotes (POSIX shells). */
export function shellWord(text: string): string {
  return /^[\w./:=@%+,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export async function detectTestCommand(
  backend: BackendProtocol,
  options: { configured?: string; pattern?: string; platform?: string } = {},
): Promise<TestCommand | undefined> {
  const pattern = options.pattern?.trim() || undefined;
  const configured = options.configured?.trim();
  if (configured)
    return {
      command: pattern ? `${configured} ${shellWord(pattern)}` : configured,
      source: "the fathom.testCommand setting",
    };
  const listing = await backend.ls("/");
  const names = new Set((listing.files ?? []).map((f) => f.path.replace(/\/$/, "").split("/").pop() ?? ""));
  const read = async (name: string) =>
    names.has(name) ? ((await backend.readText(`/${name}`, MAX_CONFIG_BYTES)).text ?? "") : "";

  if (names.has("package.json")) {
    const script = testScript(await read("package.json"));
    if (script) return { command: npmCommand(script, names, pattern), source: "package.json scripts.test" };
  }
  if (await usesPytest(backend, names, read)) {
    const python = names.has(".venv") ? venvPython(".venv", options.platform) : pythonFor(options.platform);
    return {
      command: `${python} -m pytest -q${pattern ? ` -k ${shellWord(pattern)}` : ""}`,
      source: "pytest's files in the workspace",
    };
  }
  if (names.has("go.mod"))
    return { command: `go test ./...${pattern ? ` -run ${shellWord(pattern)}` : ""}`, source: "go.mod" };
  if (names.has("Cargo.toml"))
    return { command: `cargo test${pattern ? ` ${shellWord(pattern)}` : ""}`, source: "Cargo.toml" };
  return undefined;
}

function testScript(packageJson: string): string | undefined {
  try {
    const parsed = JSON.parse(packageJson) as { scripts?: Record<string, unknown> };
    const script = parsed.scripts?.test;
    return typeof script === "string" && script.trim() && !NO_TEST_SCRIPT.test(script) ? script.trim() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `npm test` (pnpm's or yarn's when their lockfile is there), with the pattern as the script's
 * runner takes a test name: jest and vitest `-t`, mocha `--grep`; Node's own runner takes no name
 * after its files, so its command is run itself with `--test-name-pattern`; anything else gets the
 * pattern as an argument.
 */
function npmCommand(script: string, names: ReadonlySet<string>, pattern: string | undefined): string {
  const runner = names.has("pnpm-lock.yaml") ? "pnpm" : names.has("yarn.lock") ? "yarn" : "npm";
  const base = `${runner} test`;
  if (!pattern) return base;
  const word = shellWord(pattern);
  const pass = (args: string) => (runner === "yarn" ? `${base} ${args}` : `${base} -- ${args}`);
  if (/\b(jest|vitest)\b/.test(script)) return pass(`-t ${word}`);
  if (/\bmocha\b/.test(script)) return pass(`--grep ${word}`);
  if (/^node\b[^&|;]*\s--test\b/.test(script))
    return script.replace(/\s--test\b/, (flag) => `${flag} --test-name-pattern=${word}`);
  return pass(word);
}

async function usesPytest(
  backend: BackendProtocol,
  names: ReadonlySet<string>,
  read: (name: string) => Promise<string>,
): Promise<boolean> {
  if (names.has("pytest.ini") || names.has("conftest.py")) return true;
  if (/^\[tool\.pytest/m.test(await read("pyproject.toml"))) return true;
  if (/^\[tool:pytest\]/m.test(await read("setup.cfg"))) return true;
  if (/^\[pytest\]/m.test(await read("tox.ini"))) return true;
  for (const glob of ["**/test_*.py", "**/*_test.py"]) {
    const found = await backend.glob(glob, "/");
    if ((found.files ?? []).some((f) => !/(^|\/)(\.venv|venv|node_modules|site-packages)\//.test(f.path))) return true;
  }
  return false;
}

function pythonFor(platform: string = process.platform): string {
  return platform === "win32" ? "python" : "python3";
}

function venvPython(dir: string, platform: string = process.platform): string {
  return platform === "win32" ? `${dir}\\Scripts\\python` : `${dir}/bin/python`;
}
