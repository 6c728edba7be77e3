/**
 * A review of a diff: a read-only task (Plan mode's tool set plus `report_finding`) run through the
 * one headless run, once per part of the diff its model's context holds. Findings come back as
 * structured items (finding.ts), checked against the diff as they arrive; files with nothing to
 * review are skipped with the reason. Nothing is written: the backend refuses writes, and no tool
 * that changes anything is offered, run or approved.
 */
import { ReadOnlyBackend } from "../backends/readOnly";
import { FilesystemBackend } from "../backends/filesystem";
import type { BackendProtocol } from "../backends/protocol";
import type { FileDiff } from "../commitMessage/fileDiffs";
import { rejectAll } from "../approval";
import { runHeadless, type HeadlessAgentOptions } from "../headless/headlessRun";
import type { ChatModel } from "../model/types";
import type { AgentEvent } from "../run/events";
import { secretFileMatcher } from "../trust/secretFiles";
import type { Tool } from "../tools/tool";
import { DiffIndex } from "./diffLines";
import type { ReviewFinding } from "./finding";
import { reviewChunkChars, reviewChunks, type SkippedFile } from "./reviewChunks";
import { reviewMiddleware } from "./reviewMiddleware";
import { reviewInput } from "./reviewPrompt";
import { readReviewSteering } from "./reviewSteering";

export interface ReviewOptions {
  model: ChatModel;
  /** The repository's top folder: the only place the review reads. */
  root: string;
  /** The diff (fileDiffs.ts' `parseGitDiff`, or `readReviewDiff`'s files). Paths from `root`. */
  files: readonly FileDiff[];
  /** What is reviewed, for the model: "the staged changes", "pull request #4". */
  label?: string;
  /** The files the review reads (default: the file system under `root`); wrapped read-only. */
  backend?: BackendProtocol;
  secretFiles?: readonly string[];
  /** Model calls per part (default 30). */
  maxSteps?: number;
  /** Characters of diff per part (default: from the model's context window). */
  chunkChars?: number;
  /** Agent options the caller adds (team files, a cassette's model…); tools and backend are the review's. */
  agent?: Partial<Omit<HeadlessAgentOptions, "model" | "workspaceRoot" | "backend" | "middleware">>;
  signal?: AbortSignal;
  /** Each part as it starts: how much of the context its diff takes. */
  onPart?: (part: ReviewPart) => void | Promise<void>;
  /** Every event of every part's run, in order. */
  onEvent?: (event: AgentEvent, part: ReviewPart) => void | Promise<void>;
  /** Each finding as it is recorded. */
  onFinding?: (finding: ReviewFinding) => void;
}

export interface ReviewPart {
  /** 0-based. */
  index: number;
  total: number;
  files: string[];
  changedLines: number;
  diffChars: number;
  /** The part's diff in tokens (estimated), and its share of the model's context window (0..1). */
  diffTokens: number;
  contextWindow: number;
  contextShare: number;
}

export interface ReviewResult {
  /** `reviewed`: every part ran to its end; `incomplete`: some part stopped early (see `message`). */
  status: "reviewed" | "nothing_to_review" | "incomplete" | "cancelled";
  findings: ReviewFinding[];
  skipped: SkippedFile[];
  parts: ReviewPart[];
  /** Each part's closing words. */
  summaries: string[];
  message?: string;
  /** The largest prompt any call sent (tokens, as the server counted), against the window. */
  context: { peakTokens: number; contextWindow: number };
  costUsd: number;
}

const CHARS_PER_TOKEN = 4;
const READ_ONLY = "Not written: a review changes nothing.";

export async function runReview(o: ReviewOptions): Promise<ReviewResult> {
  const contextWindow = o.model.contextWindow;
  const secret = secretFileMatcher(o.secretFiles ?? []);
  const plan = reviewChunks(o.files, { chunkChars: o.chunkChars ?? reviewChunkChars(contextWindow), secret });
  const index = new DiffIndex(o.files.filter((f) => plan.chunks.some((c) => c.files.includes(f.path))));
  const findings: ReviewFinding[] = [];
  const result: ReviewResult = {
    status: "reviewed",
    findings,
    skipped: plan.skipped,
    parts: [],
    summaries: [],
    context: { peakTokens: 0, contextWindow },
    costUsd: 0,
  };
  if (plan.chunks.length === 0)
    return { ...result, status: "nothing_to_review", message: "The diff has no lines to review." };
  const backend = new ReadOnlyBackend(o.backend ?? new FilesystemBackend({ rootDir: o.root }), READ_ONLY);
  const steering = await readReviewSteering(backend);
  const toolMap = new Map<string, Tool>();

  for (const [i, chunk] of plan.chunks.entries()) {
    if (o.signal?.aborted) return { ...result, status: "cancelled", message: "The review was cancelled." };
    const diffTokens = Math.ceil(chunk.text.length / CHARS_PER_TOKEN);
    const part: ReviewPart = {
      index: i,
      total: plan.chunks.length,
      files: chunk.files,
      changedLines: chunk.changedLines,
      diffChars: chunk.text.length,
      diffTokens,
      contextWindow,
      contextShare: diffTokens / contextWindow,
    };
    result.parts.push(part);
    await o.onPart?.(part);
    const done = await runHeadless({
      agent: {
        ...o.agent,
        model: o.model,
        workspaceRoot: o.root,
        backend,
        // Defence in depth: only read and record tools exist, the guard refuses the rest, and no one approves a change.
        narrowTools: { kinds: ["read", "other"] },
        approvalGate: rejectAll(READ_ONLY),
        approvalPolicy: { read: "auto", other: "auto", edit: "ask", execute: "ask" },
        webFetch: false,
        generalPurposeSubagent: false,
        subagents: [],
        maxSteps: o.maxSteps ?? 30,
        contextWindow,
        ...(o.secretFiles ? { secretFiles: o.secretFiles } : {}),
        middleware: [
          reviewMiddleware({
            index,
            findings,
            tools: () => toolMap,
            ...(o.onFinding ? { onFinding: o.onFinding } : {}),
          }),
        ],
      },
      input: reviewInput({
        label: o.label ?? "this change",
        chunk,
        index: i,
        total: plan.chunks.length,
        otherFiles: plan.chunks.flatMap((c, k) => (k === i ? [] : c.files)).filter((f) => !chunk.files.includes(f)),
        skipped: plan.skipped,
        ...(steering ? { steering } : {}),
      }),
      ...(o.signal ? { signal: o.signal } : {}),
      onReady: (agent) => {
        toolMap.clear();
        for (const tool of agent.tools) toolMap.set(tool.name, tool);
      },
      onEvent: async (event) => {
        if (event.type === "usage") {
          const sent = event.usage.inputTokens + event.usage.cacheReadTokens + event.usage.cacheWriteTokens;
          result.context.peakTokens = Math.max(result.context.peakTokens, sent);
        }
        await o.onEvent?.(event, part);
      },
    });
    result.costUsd += done?.state.costUsd ?? 0;
    if (done?.finalText.trim()) result.summaries.push(done.finalText.trim());
    if (done?.reason === "cancelled") return { ...result, status: "cancelled", message: "The review was cancelled." };
    if (!done || done.reason !== "completed") {
      const why = done?.message ?? done?.reason ?? "it ended without an answer";
      result.status = "incomplete";
      result.message = `Part ${i + 1} of ${plan.chunks.length} stopped early: ${why}`;
      // A model that fails (a key, a server) fails every part alike: stop there.
      if (done?.reason === "error") return result;
    }
  }
  return result;
}
