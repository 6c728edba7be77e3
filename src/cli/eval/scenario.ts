/**
 * An eval scenario is a folder: `scenario.json` (the task, and a shell command that says
 * whether it was solved), a `workspace/` folder copied fresh for every trial, and optionally
 * `cassette.jsonl`, a recorded run that `fathom eval --replay` plays with no model.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";

/** A call the simulated person rejects (all others are approved), with the reason they give. */
const RejectRule = z
  .object({
    tool: z.string().min(1).describe("tool name, e.g. edit_file"),
    path: z.string().min(1).optional().describe("file_path the call names (a glob such as /src/*.js)"),
    command: z.string().min(1).optional().describe("text the command line contains"),
    reason: z.string().default("").describe("what the person tells the agent"),
  })
  .strict();
export type RejectRule = z.infer<typeof RejectRule>;

export const ScenarioFile = z
  .object({
    $comment: z.string().optional(),
    description: z.string().optional(),
    prompt: z.string().min(1),
    check: z.string().min(1),
    maxSteps: z.number().int().min(1).max(1000).optional(),
    timeoutSeconds: z.number().positive().max(86_400).optional(),
    reject: z.array(RejectRule).optional(),
  })
  .strict();

export interface Scenario extends z.infer<typeof ScenarioFile> {
  name: string;
  dir: string;
  workspaceDir: string;
  /** Present when the folder has one. */
  cassetteFile?: string;
}

export const CASSETTE_FILE = "cassette.jsonl";

export class ScenarioError extends Error {}

export function loadScenario(dir: string): Scenario {
  const file = path.join(dir, "scenario.json");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ScenarioError(`${file}: ${(error as Error).message}`);
  }
  const parsed = ScenarioFile.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`).join("; ");
    throw new ScenarioError(
      `${file}: ${problems}. A scenario is {"prompt": "...", "check": "shell command, exit 0 = solved", "maxSteps"?: n, "timeoutSeconds"?: n}.`,
    );
  }
  const workspaceDir = path.join(dir, "workspace");
  if (!statSync(workspaceDir, { throwIfNoEntry: false })?.isDirectory())
    throw new ScenarioError(
      `${dir} has no workspace/ folder: put the files the task starts from there (an empty folder is fine).`,
    );
  const cassetteFile = path.join(dir, CASSETTE_FILE);
  return {
    ...parsed.data,
    name: path.basename(dir),
    dir,
    workspaceDir,
    ...(existsSync(cassetteFile) ? { cassetteFile } : {}),
  };
}

/** DIR itself when it is a scenario, else its sub-folders that have a scenario.json, by name. */
export function loadScenarios(dir: string): Scenario[] {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new ScenarioError(`${dir} is not a folder.`);
  if (existsSync(path.join(dir, "scenario.json"))) return [loadScenario(dir)];
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith(".") && existsSync(path.join(dir, d.name, "scenario.json")))
    .map((d) => d.name)
    .sort();
  if (names.length === 0)
    throw new ScenarioError(`${dir} has no scenarios: a scenario is a folder with scenario.json and workspace/.`);
  return names.map((name) => loadScenario(path.join(dir, name)));
}
