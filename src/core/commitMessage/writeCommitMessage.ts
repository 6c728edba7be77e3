/**
 * One request, no tools: the change within its budget and the repository's style go to the
 * model, and its answer streams back cleaned. Every way it can end is a value with a message
 * written for the person.
 */
import { secretFileMatcher } from "../trust/secretFiles";
import { ModelError, type ChatModel, type ModelErrorKind } from "../model/types";
import { cleanCommitMessage } from "./cleanMessage";
import { commitMessagePrompt, type ChangeScope } from "./commitPrompt";
import { budgetDiff, commitDiffBudget } from "./diffBudget";
import type { FileDiff } from "./fileDiffs";

export interface WriteCommitMessageOptions {
  model: ChatModel;
  /** The change to describe (see fileDiffs.ts). */
  files: readonly FileDiff[];
  scope: ChangeScope;
  /** The repository's latest commit subjects, newest first. */
  subjects: readonly string[];
  signal?: AbortSignal;
  /** The message so far, cleaned, each time more of it arrives. */
  onText?: (message: string) => void;
  /** Secret-file patterns the person added to the built-in list. */
  secretFiles?: readonly string[];
  /** Characters of diff to send (default: from the model's context window). */
  budgetChars?: number;
}

export type CommitMessageResult =
  | { ok: true; message: string; summarized: boolean }
  | {
      ok: false;
      reason: "no_changes" | "cancelled" | "model" | "empty" | "runaway";
      message: string;
      kind?: ModelErrorKind;
    };

/** An answer this long is the model looping, not a commit message. */
export const MAX_MESSAGE_CHARS = 5_000;

export async function writeCommitMessage(o: WriteCommitMessageOptions): Promise<CommitMessageResult> {
  if (o.files.length === 0) return { ok: false, reason: "no_changes", message: "There are no changes to describe." };
  const cancelled = { ok: false, reason: "cancelled", message: "Cancelled: no commit message was written." } as const;
  const secret = secretFileMatcher(o.secretFiles ?? []);
  const diff = budgetDiff(o.files, { budgetChars: o.budgetChars ?? commitDiffBudget(o.model.contextWindow), secret });
  const prompt = commitMessagePrompt({ diff, scope: o.scope, subjects: o.subjects });

  // Our own controller, so a runaway answer can be stopped as well as a cancel passed on.
  const controller = new AbortController();
  const passOn = () => controller.abort();
  if (o.signal?.aborted) return cancelled;
  o.signal?.addEventListener("abort", passOn, { once: true });
  let text = "";
  try {
    for await (const event of o.model.stream({
      system: prompt.system,
      messages: [{ role: "user", content: prompt.user }],
      tools: [],
      signal: controller.signal,
    })) {
      if (event.type === "text_delta") text += event.text;
      else if (event.type === "text_reset") text = event.text;
      else if (event.type === "done") text = event.message.content || text;
      else continue;
      if (text.length > MAX_MESSAGE_CHARS) {
        controller.abort();
        return {
          ok: false,
          reason: "runaway",
          message: `The model's answer ran past ${MAX_MESSAGE_CHARS.toLocaleString("en-US")} characters, which is no commit message, so it was stopped. Try again, or pick another model.`,
        };
      }
      o.onText?.(cleanCommitMessage(text, { partial: event.type !== "done" }));
    }
  } catch (error) {
    if (o.signal?.aborted) return cancelled;
    if (error instanceof ModelError)
      return error.kind === "cancelled"
        ? cancelled
        : { ok: false, reason: "model", message: error.message, kind: error.kind };
    return {
      ok: false,
      reason: "model",
      message: `The model request failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    o.signal?.removeEventListener("abort", passOn);
  }
  if (o.signal?.aborted) return cancelled;
  const message = cleanCommitMessage(text);
  if (message === "")
    return {
      ok: false,
      reason: "empty",
      message: "The model answered with no commit message. Try again, or pick another model.",
    };
  return { ok: true, message, summarized: diff.summarized };
}
