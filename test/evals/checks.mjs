// Helpers for the scenarios' checks. A check runs in the trial's workspace (the current folder)
// after the task; FATHOM_EVAL_SCENARIO is the scenario's folder (its pristine workspace/ is
// there), FATHOM_EVAL_ANSWER the agent's final answer, FATHOM_EVAL_EVENTS its events (JSON lines).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const scenario = process.env.FATHOM_EVAL_SCENARIO ?? "";

/** Ends the check: not solved, and why. */
export function fail(why) {
  console.error(`not solved: ${why}`);
  process.exit(1);
}

export function expect(ok, why) {
  if (!ok) fail(why);
}

/** A file of the workspace after the task. */
export function read(file) {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return fail(`${file} is missing`);
  }
}

/** The same file as the scenario started. */
export function original(file) {
  return readFileSync(path.join(scenario, "workspace", file), "utf8");
}

export function unchanged(...files) {
  for (const file of files)
    expect(read(file) === original(file), `${file} was changed, and the task did not ask for that`);
}

/** Loads a CommonJS module of the workspace. */
export function load(file) {
  return createRequire(path.join(process.cwd(), "x.js"))(`./${file}`);
}

export function answer() {
  return readFileSync(process.env.FATHOM_EVAL_ANSWER ?? "", "utf8");
}

/** The run's events, subagents' included. */
export function events() {
  const flat = [];
  const add = (e) => (e.type === "subagent" ? add(e.event) : flat.push(e));
  for (const line of readFileSync(process.env.FATHOM_EVAL_EVENTS ?? "", "utf8").split("\n"))
    if (line.trim()) add(JSON.parse(line));
  return flat;
}

/** Calls that ran, by tool name. */
export function calls(tool) {
  return events().filter((e) => e.type === "tool_call_finished" && e.toolName === tool);
}
