/**
 * One Generate Commit Message in a repository: read its changes, ask the window's model, and
 * stream the message into its Source Control box. The box is the person's: what they had there
 * comes back if the request is cancelled or fails, and if they type into it meanwhile the
 * request stops and leaves their text. Does not import `vscode` (tested in Node with fakes).
 */
import { writeCommitMessage } from "../../core";
import type { Logger } from "../log";
import type { ModelSetup } from "../models/modelSetup";
import { commitChangesOf } from "./gitExtensionChanges";
import type { GitRepository, Problem } from "./gitRepositories";

export type CommitMessageOutcome =
  | { ok: true; message: string; summarized: boolean }
  | {
      ok: false;
      reason:
        | "no_repository"
        | "dismissed"
        | "git"
        | "no_changes"
        | "setup"
        | "model"
        | "empty"
        | "runaway"
        | "cancelled"
        | "edited";
      message: string;
      action?: Problem["action"];
    };

export async function generateCommitMessage(
  repository: GitRepository,
  o: { models: Pick<ModelSetup, "readSetup" | "createModel">; signal: AbortSignal; log: Logger },
): Promise<CommitMessageOutcome> {
  const root = repository.rootUri.fsPath;
  const changes = await commitChangesOf(repository);
  if ("error" in changes) return { ok: false, reason: "git", message: changes.error };
  if (changes.files.length === 0) {
    return {
      ok: false,
      reason: "no_changes",
      message: `There are no changes in ${root} to write a commit message for: change or add a file first.`,
    };
  }
  const setup = await o.models.readSetup();
  if (setup.problem) {
    const { message, action, actionLabel } = setup.problem;
    return {
      ok: false,
      reason: "setup",
      message,
      ...(action ? { action: { label: actionLabel ?? "Fix", command: action } } : {}),
    };
  }
  if (o.signal.aborted) return { ok: false, reason: "cancelled", message: "Cancelled: no commit message was written." };
  const model = o.models.createModel(setup.settings, setup.apiKey);
  o.log.info(
    `Commit message for ${root}: ${changes.files.length} file(s), ${changes.scope === "staged" ? "staged" : "all (nothing staged)"}, ${model.provider} ${model.model}`,
  );

  const box = repository.inputBox;
  const before = box.value;
  // Every value Fathom put in the box: VS Code echoes each back to the extension host a moment
  // later, so the box may still read an earlier one of ours. Anything else the person typed.
  const ours = new Set([before]);
  const typedByPerson = () => !ours.has(box.value);
  let edited = false;
  const stop = new AbortController();
  const passOn = () => stop.abort();
  o.signal.addEventListener("abort", passOn, { once: true });
  let result;
  try {
    result = await writeCommitMessage({
      model,
      files: changes.files,
      scope: changes.scope,
      subjects: changes.subjects,
      secretFiles: setup.settings.secretFiles,
      signal: stop.signal,
      onText(text) {
        if (typedByPerson()) {
          // The box is theirs again.
          edited = true;
          stop.abort();
          return;
        }
        if (text === "") return;
        ours.add(text);
        box.value = text;
      },
    });
  } finally {
    o.signal.removeEventListener("abort", passOn);
  }
  edited ||= typedByPerson();
  if (edited)
    return {
      ok: false,
      reason: "edited",
      message: "Stopped: you typed in the commit message box, so Fathom left your text there.",
    };
  if (result.ok) {
    box.value = result.message;
    return { ok: true, message: result.message, summarized: result.summarized };
  }
  box.value = before;
  if (result.reason === "model" || result.reason === "empty" || result.reason === "runaway") {
    o.log.warn(`Commit message for ${root} failed: ${result.message}`);
    const setKey = result.kind === "auth" && setup.settings.provider !== "vscode";
    return {
      ok: false,
      reason: result.reason,
      message: result.message,
      ...(setKey ? { action: { label: "Set API Key", command: "fathom.setApiKey" } } : {}),
    };
  }
  return { ok: false, reason: result.reason === "no_changes" ? "no_changes" : "cancelled", message: result.message };
}
