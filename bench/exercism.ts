// The vendored Exercism Python exercises (bench/tasks/exercism-python) as tasks for a coding agent:
// the manifest, the fixed prompt, a fresh workspace, Fathom's command line for one, and the judge
// (the pristine test file under pytest). One copy for both users: `npm run bench -- tasks`
// (bench/tasks.ts, every exercise, Fathom beside its peers) and `npm test`'s real-model stage
// (test/local-model/exercises.real.test.ts, three exercises, invariants asserted).
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

export const EXERCISES_DIR = path.join(import.meta.dirname, "tasks", "exercism-python");
const JUDGE_TIMEOUT_MS = 120_000;
/** Files a harness could add to change what pytest runs or how: removed before judging. */
const PYTEST_CONFIG = ["conftest.py", "pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"];

export interface Exercise {
  slug: string;
  difficulty: number;
  stub: string;
  test: string;
}

/** The fixed prompt: it names the instructions, the stub, the test file and the test command. */
export function taskPrompt(e: Exercise): string {
  return (
    `Solve this Python exercise. The instructions are in .docs/instructions.md. ` +
    `Write the solution in ${e.stub} (now a stub). The tests are in ${e.test}; do not change them. ` +
    `Run the tests with \`python -m pytest -q\` and fix the code until they all pass.`
  );
}

export function loadExercises(): Exercise[] {
  const manifest = JSON.parse(readFileSync(path.join(EXERCISES_DIR, "exercises.json"), "utf8")) as {
    exercises: Exercise[];
  };
  return manifest.exercises;
}

/** The exercise as it ships (stub, test file, .docs/instructions.md), copied into `workspace`. */
export function prepareWorkspace(e: Exercise, workspace: string): void {
  cpSync(path.join(EXERCISES_DIR, e.slug), workspace, { recursive: true });
}

/**
 * Fathom's CLI on the exercise, unattended as a person would run it: `fathom run --provider
 * openai-compatible … --yes --json` (writes and commands approved, events as JSON lines) in the
 * mode Fathom picks for the model, as a new user (its config and data under `home`, created here;
 * no memories, no user rules, no API key). `args` follow the CLI's entry point.
 */
export function fathomRun(
  e: Exercise,
  o: { url: string; modelId: string; workspace: string; home: string; extraArgs?: string[] },
): { args: string[]; env: NodeJS.ProcessEnv } {
  const config = path.join(o.home, "config");
  const data = path.join(o.home, "data");
  mkdirSync(config, { recursive: true });
  mkdirSync(data, { recursive: true });
  return {
    args: [
      "run",
      "--provider",
      "openai-compatible",
      "--base-url",
      o.url,
      "--model",
      o.modelId,
      "--yes",
      "--json",
      "--cwd",
      o.workspace,
      ...(o.extraArgs ?? []),
      taskPrompt(e),
    ],
    env: { ...process.env, XDG_CONFIG_HOME: config, XDG_DATA_HOME: data, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" },
  };
}

export interface Verdict {
  passed: boolean;
  /** What pytest printed (or why it could not run). */
  output: string;
  /** The test file was missing or not byte for byte the pristine one (it is put back before judging). */
  testChanged: boolean;
  /** Pytest configuration the harness added (removed before judging). */
  configAdded: string[];
}

/**
 * Judges the workspace as the harness left it: the pristine test file is put back, pytest config
 * the harness added is removed, and `python -m pytest -q` runs the tests.
 */
export function judge(e: Exercise, workspace: string, python: string): Verdict {
  const pristine = path.join(EXERCISES_DIR, e.slug, e.test);
  const testFile = path.join(workspace, e.test);
  const testChanged = !existsSync(testFile) || !readFileSync(testFile).equals(readFileSync(pristine));
  copyFileSync(pristine, testFile);
  const configAdded = PYTEST_CONFIG.filter((f) => existsSync(path.join(workspace, f)));
  for (const f of configAdded) rmSync(path.join(workspace, f), { force: true });
  try {
    const out = execFileSync(python, ["-m", "pytest", "-q", "-p", "no:cacheprovider", e.test], {
      cwd: workspace,
      encoding: "utf8",
      timeout: JUDGE_TIMEOUT_MS,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { passed: true, output: out, testChanged, configAdded };
  } catch (error) {
    const err = error as { stdout?: string; stderr?: string; message: string };
    return { passed: false, output: `${err.stdout ?? ""}${err.stderr ?? ""}` || err.message, testChanged, configAdded };
  }
}

/** Throws, saying what to install, when `python -m pytest` (the judge and the prompt's test command) cannot run. */
export function checkPytest(python: string): void {
  try {
    execFileSync(python, ["-m", "pytest", "--version"], { stdio: "ignore" });
  } catch {
    throw new Error(
      `pytest is missing: install it (${python} -m pip install pytest, or on Debian: sudo apt-get install python3-pytest), the judge runs \`python -m pytest -q\`.`,
    );
  }
}
