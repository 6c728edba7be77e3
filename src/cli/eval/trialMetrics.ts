/**
 * What a trial's events say about how the agent worked: tool calls and failures per tool, and
 * edit precision. Edit precision asks, for every edit the model attempted: did it apply on the
 * first try, and when it did not, did the error alone let the next attempt succeed, or did the
 * model have to read the file again? (Edits that fail to match are where agents' users lose
 * most of their money: each retry resends the whole conversation.)
 */
import * as path from "node:path";
import type { AgentEvent } from "../../core/run/events";

export interface ToolStats {
  attempts: number;
  failures: number;
}

export interface EditPrecision {
  /** edit_file / write_file calls the tools ran (a person's rejection is not an attempt). */
  attempts: number;
  /** Calls refused by the workspace's rules (outside it, ignored files): not a matter of precision. */
  refused: number;
  applied: number;
  /** Edits applied with no failed attempt on that file before them. */
  firstTry: number;
  failed: number;
  /** For each failed attempt, what the next attempt on the same file did: */
  nextAppliedFromError: number;
  nextAppliedAfterReread: number;
  nextFailed: number;
  /** no later attempt on that file. */
  abandoned: number;
}

export interface TrialMetrics {
  toolCalls: Record<string, ToolStats>;
  editFailures: number;
  edits: EditPrecision;
}

const EDIT_TOOLS = new Set(["edit_file", "write_file"]);
/** Refusals of where an edit may go (pathGuard, .fathomignore, .git), as opposed to what it says. */
const REFUSAL = /\bnot allowed\b|outside the workspace|\.fathomignore|\bis ignored\b|Permission denied/i;

export function emptyPrecision(): EditPrecision {
  return {
    attempts: 0,
    refused: 0,
    applied: 0,
    firstTry: 0,
    failed: 0,
    nextAppliedFromError: 0,
    nextAppliedAfterReread: 0,
    nextFailed: 0,
    abandoned: 0,
  };
}

export function addPrecision(into: EditPrecision, more: EditPrecision): void {
  for (const key of Object.keys(into) as (keyof EditPrecision)[]) into[key] += more[key];
}

/** Events of the run and of its subagents, in order. */
function flatten(events: readonly AgentEvent[]): AgentEvent[] {
  const out: AgentEvent[] = [];
  for (const e of events) {
    if (e.type === "subagent") out.push(...flatten([e.event]));
    else out.push(e);
  }
  return out;
}

/** One spelling per file: "/src/a.ts" for "src/a.ts", "/src/./a.ts" or the absolute path. */
function fileKey(filePath: unknown, workspaceRoot: string): string | undefined {
  if (typeof filePath !== "string" || filePath === "") return undefined;
  let p = filePath.replace(/\\/g, "/");
  const root = workspaceRoot.replace(/\\/g, "/").replace(/\/+$/, "");
  if (p === root || p.startsWith(`${root}/`)) p = p.slice(root.length);
  return path.posix.normalize(`/${p}`);
}

export function trialMetrics(events: readonly AgentEvent[], workspaceRoot: string): TrialMetrics {
  const all = flatten(events);
  const rejected = new Set(
    all
      .filter((e) => e.type === "approval_decided" && e.decision === "reject")
      .map((e) => (e as { toolCallId: string }).toolCallId),
  );
  const toolCalls: Record<string, ToolStats> = {};
  const edits = emptyPrecision();
  /** Per file: failed attempts waiting for the next attempt, and whether the file was read since. */
  const open = new Map<string, { failures: number; reread: boolean }>();
  let editFailures = 0;

  for (const e of all) {
    if (e.type !== "tool_call_finished") continue;
    const stats = (toolCalls[e.toolName] ??= { attempts: 0, failures: 0 });
    stats.attempts++;
    if (e.isError) stats.failures++;
    const args = (e.args ?? {}) as Record<string, unknown>;
    const file = fileKey(args.file_path, workspaceRoot);
    if (e.toolName === "read_file" && file) {
      const pending = open.get(file);
      if (pending) pending.reread = true;
      continue;
    }
    if (!EDIT_TOOLS.has(e.toolName) || rejected.has(e.toolCallId)) continue;
    if (e.isError && REFUSAL.test(e.content)) {
      edits.refused++;
      continue;
    }
    edits.attempts++;
    const key = file ?? "(no file)";
    const pending = open.get(key);
    if (e.isError) {
      edits.failed++;
      editFailures++;
      if (pending) {
        // The previous failure's next attempt failed too.
        edits.nextFailed += 1;
        pending.failures++;
        pending.reread = false;
      } else open.set(key, { failures: 1, reread: false });
      continue;
    }
    edits.applied++;
    if (!pending) edits.firstTry++;
    else {
      if (pending.reread) edits.nextAppliedAfterReread++;
      else edits.nextAppliedFromError++;
      open.delete(key);
    }
  }
  // A failure on a file that saw no later attempt.
  for (const pending of open.values()) if (pending.failures > 0) edits.abandoned++;
  return { toolCalls, editFailures, edits };
}

/** "17 of 18 edits applied on the first try (94%) …": the report's edit precision paragraph. */
export function describePrecision(p: EditPrecision): string {
  const refused = p.refused
    ? ` ${p.refused} refused for where ${p.refused === 1 ? "it" : "they"} would write (outside the workspace, an ignored file), not counted.`
    : "";
  if (p.attempts === 0) return `Edit precision: no edits were attempted.${refused}`;
  const edits = p.applied + p.abandoned;
  const pct = edits === 0 ? "" : ` (${Math.round((100 * p.firstTry) / edits)}%)`;
  let text = `Edit precision: ${p.firstTry} of ${edits} edit${edits === 1 ? "" : "s"} applied on the first try${pct}, in ${p.attempts} attempt${p.attempts === 1 ? "" : "s"}.`;
  if (p.failed > 0) {
    text +=
      ` After ${p.failed === 1 ? "the failed attempt" : `each of the ${p.failed} failed attempts`}, the next attempt on that file applied from the error alone: ${p.nextAppliedFromError};` +
      ` applied after re-reading the file: ${p.nextAppliedAfterReread}; failed again: ${p.nextFailed}; none followed: ${p.abandoned}.`;
  }
  return text + refused;
}
