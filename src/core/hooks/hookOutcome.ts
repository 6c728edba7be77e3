import type { HookDefinition, HookEvent } from "./hookConfig";
import type { HookProcessResult } from "./runHook";

/**
 * What a hook decided, read from its exit code and output as Claude Code documents it: exit 0
 * goes on (stdout is context for UserPromptSubmit and SessionStart, or JSON); exit 2 blocks with
 * stderr; any other code is a warning. JSON: `decision` ("block"; "approve" as an old allow),
 * `reason`, `hookSpecificOutput.permissionDecision` (allow/deny/ask) with
 * `permissionDecisionReason`, `hookSpecificOutput.updatedInput` (PreToolUse: the call runs with
 * these arguments), `hookSpecificOutput.additionalContext`, `continue: false` with `stopReason`
 * (the task stops after this hook) and `systemMessage` (a line for the person).
 */
export type HookDecision = "block" | "ask" | "allow" | "none" | "failed";

export interface HookOutcome {
  hook: HookDefinition;
  decision: HookDecision;
  durationMs: number;
  /** Why it blocked or asked (for the model, or the person). */
  reason?: string;
  /** Text the model gets as context. */
  context?: string;
  /** A line for the person: it failed, or part of what it said was ignored. */
  warning?: string;
  /** `continue: false`: the task stops once this hook has run; the text says why (for the person). */
  stop?: string;
  /** PreToolUse's `updatedInput`: the arguments the call should run with instead. */
  updatedInput?: Record<string, unknown>;
}

const REASON_CHARS = 8_000;

function clip(text: string): string {
  const t = text.trim();
  return t.length > REASON_CHARS ? `${t.slice(0, REASON_CHARS)}… [cut at ${REASON_CHARS} characters]` : t;
}

export function hookOutcome(hook: HookDefinition, run: HookProcessResult): HookOutcome {
  const base = { hook, durationMs: run.durationMs };
  const failedWhy = run.timedOut
    ? `timed out after ${hook.timeoutMs < 10_000 ? (hook.timeoutMs / 1000).toFixed(1) : Math.round(hook.timeoutMs / 1000)} s and was stopped`
    : run.cancelled
      ? "was stopped: the task was cancelled"
      : run.failure
        ? run.failure
        : run.exitCode === 126 || run.exitCode === 127
          ? `could not run (exit ${run.exitCode}: not found or not executable${run.stderr.trim() ? `: ${clip(run.stderr).split("\n")[0]}` : ""})`
          : run.exitCode === null
            ? "ended without an exit code"
            : undefined;
  if (failedWhy) return failed(base, hook, failedWhy);
  if (run.exitCode === 2)
    return {
      ...base,
      decision: "block",
      reason: clip(run.stderr) || `The ${hook.event} hook "${hook.command}" blocked this (exit 2) without saying why.`,
    };
  if (run.exitCode !== 0) {
    const why = `exited with code ${run.exitCode}${run.stderr.trim() ? `: ${clip(run.stderr).split("\n")[0]}` : ""}`;
    return failed(base, hook, why);
  }
  const out = run.stdout.trim();
  if (out.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(out);
    } catch {
      json = undefined;
    }
    if (typeof json === "object" && json !== null) return fromJson(base, hook, json as Record<string, unknown>);
  }
  const takesText = hook.event === "UserPromptSubmit" || hook.event === "SessionStart";
  return { ...base, decision: "none", ...(takesText && out ? { context: clip(out) } : {}) };
}

function failed(base: { hook: HookDefinition; durationMs: number }, hook: HookDefinition, why: string): HookOutcome {
  const line = `The ${hook.event} hook "${hook.command}" ${why}.`;
  if (hook.event === "PreToolUse" && hook.failClosed) {
    return {
      ...base,
      decision: "block",
      reason: `${line} It is set to refuse calls when it fails ("failClosed": true), so this call was not run.`,
      warning: line,
    };
  }
  return { ...base, decision: "failed", warning: `${line} The task goes on.` };
}

function fromJson(
  base: { hook: HookDefinition; durationMs: number },
  hook: HookDefinition,
  json: Record<string, unknown>,
): HookOutcome {
  const specific =
    typeof json.hookSpecificOutput === "object" && json.hookSpecificOutput !== null
      ? (json.hookSpecificOutput as Record<string, unknown>)
      : {};
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? clip(v) : undefined);
  const context = text(specific.additionalContext);
  const extras: Partial<HookOutcome> = {
    ...(context ? { context } : {}),
    ...(text(json.systemMessage)
      ? { warning: `The ${hook.event} hook "${hook.command}" says: ${text(json.systemMessage)}` }
      : {}),
    ...(json.continue === false
      ? {
          stop: `The ${hook.event} hook "${hook.command}" stopped the task${text(json.stopReason) ? `: ${text(json.stopReason)}` : "."}`,
        }
      : {}),
  };
  const updated = hook.event === "PreToolUse" ? specific.updatedInput : undefined;
  if (typeof updated === "object" && updated !== null && !Array.isArray(updated))
    extras.updatedInput = updated as Record<string, unknown>;
  const permission = hook.event === "PreToolUse" ? specific.permissionDecision : undefined;
  const reason = text(specific.permissionDecisionReason) ?? text(json.reason);
  let decision: HookDecision = "none";
  if (permission === "deny" || json.decision === "block") decision = "block";
  else if (permission === "ask") decision = "ask";
  else if (permission === "allow" || (hook.event === "PreToolUse" && json.decision === "approve")) decision = "allow";
  if (decision === "block" && !reason)
    return {
      ...base,
      ...extras,
      decision,
      reason: `The ${hook.event} hook "${hook.command}" blocked this without saying why.`,
    };
  if (decision === "allow" && hook.origin === "workspace") {
    // A repository cannot approve its own calls: its allow counts for nothing.
    const ignored = `The repository's PreToolUse hook "${hook.command}" said allow; a workspace hook cannot approve calls, so the usual approval applies.`;
    return { ...base, ...extras, decision: "none", warning: extras.warning ? `${extras.warning} ${ignored}` : ignored };
  }
  return { ...base, ...extras, decision, ...(reason ? { reason } : {}) };
}

/** The strongest of several hooks' decisions: block, then ask, then allow. */
export function combinedDecision(outcomes: readonly HookOutcome[]): HookOutcome | undefined {
  for (const d of ["block", "ask", "allow"] as const) {
    const found = outcomes.find((o) => o.decision === d);
    if (found) return found;
  }
  return undefined;
}

/** The additional context of several hooks, each labelled with the hook it came from. */
export function contextOf(event: HookEvent, outcomes: readonly HookOutcome[]): string | undefined {
  const parts = outcomes
    .filter((o) => o.context)
    .map(
      (o) =>
        `From the ${event} hook "${o.hook.command}" (${o.hook.origin === "user" ? "the person's own hook" : "a hook the repository defines"}; not the person's words):\n${o.context}`,
    );
  return parts.length ? parts.join("\n\n") : undefined;
}
