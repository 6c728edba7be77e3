/**
 * Does a live request still follow the recording? Compares two conversations item by item and
 * says, in words, where they first part: a different tool called, different arguments, a
 * different result, a message more or less.
 *
 * Commands' results are compared by how they ended (exit code, timed out, rejected), not by
 * their output: output carries timings, versions and paths that differ between machines,
 * while the exit code is what the task's outcome hangs on. With `results: "outcome"` (the demo,
 * which was recorded outside VS Code and plays inside it) edits are compared the same way
 * (applied or not), and with `userText: "any"` the person may type anything.
 */
import { diffLines } from "diff";
import type { Conversation, ConversationItem } from "./conversation";

export interface MatchRules {
  results: "exact" | "outcome";
  userText: "exact" | "any";
}

export const EXACT: MatchRules = { results: "exact", userText: "exact" };

const COMMAND_TOOLS = new Set(["execute", "command_output", "stop_command"]);
const EDIT_TOOLS = new Set(["edit_file", "write_file"]);

/** How a tool call ended, when that (not the exact text) is what to compare; else undefined. */
export function resultOutcome(name: string, text: string, rules: MatchRules): string | undefined {
  if (text.startsWith("The person rejected this "))
    return rules.results === "outcome" ? "rejected by the person" : undefined;
  if (COMMAND_TOOLS.has(name)) {
    if (/\[Timed out after /.test(text)) return "timed out";
    if (/\[Cancelled by the person/.test(text)) return "cancelled";
    if (/\[Still running /.test(text)) return "still running";
    const exit = /\[(?:Finished\. |Stopped\. )?Exit code: (-?\d+|unknown)\]/.exec(text);
    if (exit) return `exit code ${exit[1]}`;
    return undefined;
  }
  if (rules.results === "outcome" && EDIT_TOOLS.has(name))
    return /^(Edited|Wrote|Created) /.test(text) ? "applied" : "not applied";
  return undefined;
}

export interface Difference {
  /** Index in the conversation's items. */
  index: number;
  /** One line: what differs. */
  what: string;
  /** The texts that differ, as a line diff (may be empty). */
  detail: string[];
}

function describe(item: ConversationItem): string {
  switch (item.kind) {
    case "user":
      return `a message from the person (${quote(item.text)})`;
    case "assistant":
      return `the model's text (${quote(item.text)})`;
    case "call":
      return `a ${item.name} call ${item.args}`;
    case "result":
      return `${item.name || "a tool"}'s result (${quote(item.text)})`;
  }
}

function quote(text: string, max = 100): string {
  const t = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(t.length > max ? `${t.slice(0, max - 1)}…` : t);
}

/** The changed lines of two texts, `-` recorded and `+` now, with a little context; at most `max` lines. */
export function lineDiff(recorded: string, now: string, max = 16): string[] {
  const out: string[] = [];
  const parts = diffLines(recorded, now);
  for (const [i, part] of parts.entries()) {
    const lines = part.value.replace(/\n$/, "").split("\n");
    if (part.added || part.removed) {
      for (const line of lines) out.push(`${part.added ? "+" : "-"} ${line}`);
    } else {
      // One line of context on each side of a change; "…" for the lines left out.
      const head = i > 0 ? lines[0] : undefined;
      const tail = i < parts.length - 1 ? lines[lines.length - 1] : undefined;
      const shown = (head !== undefined ? 1 : 0) + (tail !== undefined ? 1 : 0);
      if (head !== undefined) out.push(`  ${head}`);
      if (lines.length > shown) out.push("  …");
      if (tail !== undefined && !(head !== undefined && lines.length === 1)) out.push(`  ${tail}`);
    }
  }
  if (out.length > max) return [...out.slice(0, max), `  … (${out.length - max} more lines differ)`];
  return out;
}

/** Where `now` first leaves `recorded`, or undefined when it follows it. */
export function firstDifference(
  recorded: Conversation,
  now: Conversation,
  rules: MatchRules = EXACT,
): Difference | undefined {
  if (recorded.endpoint !== now.endpoint) {
    return {
      index: 0,
      what: `the request went to ${now.endpoint}, the recording's to ${recorded.endpoint} (a different provider?)`,
      detail: [],
    };
  }
  const n = Math.max(recorded.items.length, now.items.length);
  for (let i = 0; i < n; i++) {
    const r = recorded.items[i];
    const c = now.items[i];
    if (!r) return { index: i, what: `the agent sent more than the recording has: ${describe(c!)}`, detail: [] };
    if (!c) return { index: i, what: `the agent sent less than the recording: it has ${describe(r)} here`, detail: [] };
    if (r.kind !== c.kind)
      return { index: i, what: `the agent sent ${describe(c)} where the recording has ${describe(r)}`, detail: [] };
    if (r.kind === "user" && c.kind === "user") {
      if (rules.userText === "exact" && r.text !== c.text)
        return { index: i, what: "the person's message differs", detail: lineDiff(r.text, c.text) };
    } else if (r.kind === "assistant" && c.kind === "assistant") {
      if (r.text !== c.text) return { index: i, what: "the model's text differs", detail: lineDiff(r.text, c.text) };
    } else if (r.kind === "call" && c.kind === "call") {
      if (r.name !== c.name)
        return {
          index: i,
          what: `a different tool was called: ${c.name} where the recording calls ${r.name}`,
          detail: [],
        };
      if (r.args !== c.args)
        return { index: i, what: `${c.name} was called with different arguments`, detail: lineDiff(r.args, c.args) };
      if (r.id !== c.id)
        return { index: i, what: `${c.name}'s call id differs (${c.id}, recorded ${r.id})`, detail: [] };
    } else if (r.kind === "result" && c.kind === "result") {
      const name = c.name || r.name;
      const ro = resultOutcome(name, r.text, rules);
      const co = resultOutcome(name, c.text, rules);
      if (ro !== undefined || co !== undefined) {
        if (ro !== co)
          return {
            index: i,
            what: `${name} ended differently: ${co ?? "another result"}, recorded ${ro ?? "another result"}`,
            detail: lineDiff(r.text, c.text),
          };
      } else if (r.text !== c.text) {
        return { index: i, what: `${name}'s result differs`, detail: lineDiff(r.text, c.text) };
      }
    }
  }
  return undefined;
}

/** How many items two conversations share from the start (to pick the closest recorded request). */
export function sharedPrefix(recorded: Conversation, now: Conversation, rules: MatchRules = EXACT): number {
  const d = firstDifference(recorded, now, rules);
  return d ? d.index : recorded.items.length;
}

/** Differences that do not stop a replay but may explain one: the system prompt, the tools offered. */
export function setupNotes(recorded: Conversation, now: Conversation): string[] {
  const notes: string[] = [];
  if (recorded.system !== now.system)
    notes.push("The system prompt differs from the recording's (machine, date or a newer Fathom).");
  const added = now.tools.filter((t) => !recorded.tools.includes(t));
  const missing = recorded.tools.filter((t) => !now.tools.includes(t));
  if (added.length || missing.length) {
    notes.push(
      `The tools offered differ from the recording's:${added.length ? ` new ${added.join(", ")};` : ""}${missing.length ? ` gone ${missing.join(", ")};` : ""}`.replace(
        /;$/,
        ".",
      ),
    );
  }
  return notes;
}
