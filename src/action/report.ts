/** What the action writes on GitHub: the pull request's body and the comments, in Markdown. */
import type { RunState } from "../core/run/runState";
import type { ChangedFile } from "./branchWork";

const MARKER = "<!-- fathom-action -->";
const STATUS: Record<string, string> = { A: "added", M: "modified", D: "deleted", T: "type changed" };
const MAX_FILES_LISTED = 100;
const MAX_SUMMARY_CHARS = 20_000;

export interface RunFacts {
  taskId: string;
  state?: RunState;
  runUrl?: string;
}

export function tokensAndCost(state: RunState | undefined): string {
  if (!state) return "no model request finished";
  const u = state.usage;
  const input = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
  return `${state.steps} model request${state.steps === 1 ? "" : "s"}, ${input.toLocaleString("en-US")} tokens in, ${u.outputTokens.toLocaleString("en-US")} out, $${state.costUsd.toFixed(4)}`;
}

export function pullRequestBody(o: {
  summary: string;
  files: ChangedFile[];
  issue?: { number: number };
  facts: RunFacts;
  notes: string[];
}): string {
  const files = o.files.slice(0, MAX_FILES_LISTED).map((f) => `- \`${f.path}\` (${STATUS[f.status] ?? f.status})`);
  if (o.files.length > MAX_FILES_LISTED) files.push(`- … and ${o.files.length - MAX_FILES_LISTED} more`);
  return [
    MARKER,
    o.issue
      ? `Fathom's work on #${o.issue.number}. Review it as any pull request: nothing was merged.`
      : "Fathom's work on a task started by hand. Review it as any pull request: nothing was merged.",
    "",
    "## Summary",
    "",
    clip(o.summary.trim() || "(The task ended without a summary.)"),
    "",
    `## Files changed (${o.files.length})`,
    "",
    ...files,
    "",
    "## Run",
    "",
    `- Task \`${o.facts.taskId}\`: ${tokensAndCost(o.facts.state)}`,
    ...(o.facts.runUrl
      ? [`- Workflow run, with the transcript and the model's recording as an artifact: ${o.facts.runUrl}`]
      : []),
    ...o.notes.map((n) => `- ${n}`),
  ].join("\n");
}

export function doneComment(o: { prUrl: string; updated: boolean; files: number; facts: RunFacts }): string {
  return `${MARKER}\nFathom ${o.updated ? "updated" : "opened"} ${o.prUrl} (${o.files} file${o.files === 1 ? "" : "s"} changed; ${tokensAndCost(o.facts.state)}).`;
}

export function noChangeComment(o: { summary: string; facts: RunFacts }): string {
  return [
    MARKER,
    "Fathom finished without changing any file, so there is no pull request. What it found:",
    "",
    quote(clip(o.summary.trim() || "(no answer)")),
    "",
    `Task \`${o.facts.taskId}\`: ${tokensAndCost(o.facts.state)}${o.facts.runUrl ? ` · [workflow run](${o.facts.runUrl})` : ""}`,
  ].join("\n");
}

export function failureComment(o: { what: string; reason: string; tail: string[]; facts: RunFacts }): string {
  return [
    MARKER,
    `Fathom could not finish: ${o.what}`,
    "",
    quote(o.reason.trim()),
    ...(o.tail.length
      ? [
          "",
          "<details><summary>The end of the transcript</summary>",
          "",
          "```text",
          ...o.tail.map((l) => l.replace(/```/g, "'''")),
          "```",
          "",
          "</details>",
        ]
      : []),
    "",
    `Nothing was merged${o.what.startsWith("the pull request") ? "" : " and no pull request was opened"}. Task \`${o.facts.taskId}\`: ${tokensAndCost(o.facts.state)}${o.facts.runUrl ? ` · [workflow run](${o.facts.runUrl})` : ""}`,
  ].join("\n");
}

/** The first line of the summary as a title, else the trigger's. */
export function pullRequestTitle(title: string): string {
  const t = title.trim().replace(/\s+/g, " ");
  return `Fathom: ${t.length > 100 ? `${t.slice(0, 99)}…` : t}`;
}

function quote(text: string): string {
  return text
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
}

function clip(text: string): string {
  return text.length > MAX_SUMMARY_CHARS
    ? `${text.slice(0, MAX_SUMMARY_CHARS)}\n\n…(cut; the full answer is in the transcript)`
    : text;
}
