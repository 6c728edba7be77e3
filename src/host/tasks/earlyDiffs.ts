import {
  EDIT_SELECTION,
  inlineEditPreview,
  isMemoryPath,
  normalizeVirtualPath,
  secretFileMatcher,
  type AgentEvent,
  type SecretFileMatcher,
} from "../../core";
import type { SessionGate } from "../wiring/sessionGate";

/**
 * The calls whose approval shows a diff: whether their file must exist, and what their arguments
 * so far make of the file (`before`), for the diff to show while they stream (undefined: nothing new).
 */
const EDIT_TOOLS: Record<
  string,
  { mustExist: boolean; preview?: (args: string, before: string | null) => string | undefined }
> = {
  edit_file: { mustExist: true },
  // A write's content arrives in a burst just before its proposal: a preview would only race it.
  write_file: { mustExist: false },
  [EDIT_SELECTION]: {
    mustExist: true,
    preview: (args, before) => (before === null ? undefined : inlineEditPreview(args, before)),
  },
};
/** How often a diff's preview follows the streamed arguments (each one reloads the right side). */
export const PREVIEW_MS = 100;
/** Arguments streamed without a `file_path` yet: past this, the call is not watched (the path usually comes first). */
const MAX_ARGS_BEFORE_PATH = 4096;

/**
 * `file_path` of a tool call's arguments while they stream in, once its string has ended:
 * `{"file_path": "/src/a.ts", "old_str` gives /src/a.ts. The key inside another argument's
 * string is escaped (\"file_path\") and does not match.
 */
export function streamedFilePath(partialArgs: string): string | undefined {
  const m = /"file_path"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(partialArgs);
  if (!m) return undefined;
  try {
    const value: unknown = JSON.parse(`"${m[1]}"`);
    return typeof value === "string" && value !== "" ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface EarlyDiffOptions {
  gate: SessionGate;
  /** The id the call's approval will wait under in the gate (its task's and its own). */
  key(toolCallId: string): string;
  /** The file's text now (null: it does not exist), or undefined when the task may not write it. */
  read(path: string): Promise<string | null | undefined>;
  /** Whether the person will be asked for this tool (not auto-approved or always allowed). */
  asks(toolName: string): boolean;
  secretFiles: readonly string[];
  taskTitle(): string | undefined;
  /** An inline edit: its diff is where the person follows it (no card), so it opens early even in a cold window. */
  diffFirst?: boolean;
}

/**
 * Opens an edit's diff while the model still writes the call. A model streams an edit's
 * arguments for seconds, and `file_path` comes first: as soon as it has, the file is read and
 * the gate opens its diff (`SessionGate.prepare`), so opening the editor is not on the way
 * between the model's last chunk and the diff the person reviews. An inline edit's answer, which
 * the model writes for seconds, is shown on the diff's right side as it comes. A call that ends without asking (its edit failed, the run stopped) closes it again.
 */
export class EarlyDiffs {
  private readonly calls = new Map<
    string,
    { toolName: string; args: string; opened: boolean; before?: string | null; timer?: ReturnType<typeof setTimeout> }
  >();
  private readonly isSecret: SecretFileMatcher;

  constructor(private readonly o: EarlyDiffOptions) {
    this.isSecret = secretFileMatcher(o.secretFiles);
  }

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case "tool_call_started":
        if (EDIT_TOOLS[event.toolName] && this.o.asks(event.toolName))
          this.calls.set(event.toolCallId, { toolName: event.toolName, args: "", opened: false });
        break;
      case "tool_call_arguments":
        this.more(event.toolCallId, event.delta);
        break;
      case "tool_call_finished":
        this.end(event.toolCallId);
        break;
      case "done":
        for (const id of [...this.calls.keys()]) this.end(id);
        break;
    }
  }

  private more(id: string, delta: string): void {
    const call = this.calls.get(id);
    if (!call) return;
    call.args += delta;
    if (call.opened) return this.previewSoon(id);
    const raw = streamedFilePath(call.args);
    if (raw === undefined) {
      if (call.args.length > MAX_ARGS_BEFORE_PATH) this.calls.delete(id);
      return;
    }
    call.opened = true;
    const path = normalizeVirtualPath(raw);
    // A path the tool will refuse, a secret file or a memory (not a workspace file) gets no early diff (its request, if any, decides).
    if (typeof path !== "string" || this.isSecret(path) || isMemoryPath(path)) return;
    void this.open(id, path, EDIT_TOOLS[call.toolName]!.mustExist);
  }

  private async open(id: string, path: string, mustExist: boolean): Promise<void> {
    const text = await this.o.read(path).catch(() => undefined);
    // The call may have ended while the file was read; an edit of a missing file will fail.
    const call = this.calls.get(id);
    if (text === undefined || (text === null && mustExist) || !call) return;
    this.o.gate.prepare?.(this.o.key(id), path, text, this.o.taskTitle(), this.o.diffFirst);
    call.before = text;
    this.previewSoon(id);
  }

  /** The right side follows the arguments, at most every PREVIEW_MS. */
  private previewSoon(id: string): void {
    const call = this.calls.get(id);
    const preview = call && EDIT_TOOLS[call.toolName]!.preview;
    const before = call?.before;
    if (!call || !preview || before === undefined || call.timer || !this.o.gate.previewPrepared) return;
    call.timer = setTimeout(() => {
      call.timer = undefined;
      const after = this.calls.get(id) === call ? preview(call.args, before) : undefined;
      if (after !== undefined) this.o.gate.previewPrepared?.(this.o.key(id), after);
    }, PREVIEW_MS);
  }

  private end(id: string): void {
    const call = this.calls.get(id);
    if (!call) return;
    clearTimeout(call.timer);
    this.calls.delete(id);
    this.o.gate.drop?.(this.o.key(id));
  }
}
