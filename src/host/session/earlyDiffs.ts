import { normalizeVirtualPath, secretFileMatcher, type AgentEvent, type SecretFileMatcher } from "../../core";
import type { SessionGate } from "./sessionGate";

/** The calls whose approval shows a diff. */
const EDIT_TOOLS = new Set(["edit_file", "write_file"]);
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
}

/**
 * Opens an edit's diff while the model still writes the call. A model streams an edit's
 * arguments for seconds, and `file_path` comes first: as soon as it has, the file is read and
 * the gate opens its diff (`SessionGate.prepare`), so opening the editor is not on the way
 * between the model's last chunk and the diff the person reviews. A call that ends without
 * asking (its edit failed, the run stopped) closes it again.
 */
export class EarlyDiffs {
  private readonly calls = new Map<string, { toolName: string; args: string; opened: boolean }>();
  private readonly isSecret: SecretFileMatcher;

  constructor(private readonly o: EarlyDiffOptions) {
    this.isSecret = secretFileMatcher(o.secretFiles);
  }

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case "tool_call_started":
        if (EDIT_TOOLS.has(event.toolName) && this.o.asks(event.toolName)) this.calls.set(event.toolCallId, { toolName: event.toolName, args: "", opened: false });
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
    if (!call || call.opened) return;
    call.args += delta;
    const raw = streamedFilePath(call.args);
    if (raw === undefined) {
      if (call.args.length > MAX_ARGS_BEFORE_PATH) this.calls.delete(id);
      return;
    }
    call.opened = true;
    const path = normalizeVirtualPath(raw);
    // A path the tool will refuse, or a secret file, gets no early diff (its request, if any, decides).
    if (typeof path !== "string" || this.isSecret(path)) return;
    void this.open(id, path, call.toolName === "edit_file");
  }

  private async open(id: string, path: string, mustExist: boolean): Promise<void> {
    const text = await this.o.read(path).catch(() => undefined);
    // The call may have ended while the file was read; an edit of a missing file will fail.
    if (text === undefined || (text === null && mustExist) || !this.calls.has(id)) return;
    this.o.gate.prepare?.(this.o.key(id), path, text, this.o.taskTitle());
  }

  private end(id: string): void {
    if (this.calls.delete(id)) this.o.gate.drop?.(this.o.key(id));
  }
}
