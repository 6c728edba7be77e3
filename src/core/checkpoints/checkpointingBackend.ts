import { AsyncLocalStorage } from "node:async_hooks";
import type { BackendProtocol, EditResult, WriteResult } from "../backends/protocol";
import { editByPreparing, writeByPreparing } from "../backends/preparedChanges";
import { WrappingBackend } from "../backends/wrappingBackend";
import type { Middleware } from "../middleware/types";
import { sizeText, type CheckpointStore } from "./checkpointStore";

/** Where in the conversation the current tool call is (set by the checkpoints middleware). */
export interface CheckpointPosition {
  conversationLength: number;
  toolCallId?: string;
}

/**
 * The tool call a write belongs to, carried through the async calls it makes: `task` calls run
 * their subagents in parallel, so a single shared "current call" would mix them up.
 */
interface CallScope {
  /** The main agent's call (a subagent's `task`). */
  toolCallId: string;
  /** The innermost call: the subagent's own write_file or edit_file. */
  callId: string;
  conversationLength: number;
}
const callScope = new AsyncLocalStorage<CallScope>();

/**
 * The agent's backend with a checkpoint before each write: the file's earlier text is kept
 * before the write, and a checkpoint with what was written (read back: an editor's save may
 * have reformatted it) is recorded once it succeeded. Reads pass through unchanged.
 */
export class CheckpointingBackend extends WrappingBackend {
  constructor(
    inner: BackendProtocol,
    private readonly store: CheckpointStore,
    private readonly taskId: string,
    private readonly position: CheckpointPosition,
    private readonly onError: (message: string) => void = () => undefined,
  ) {
    super(inner);
  }

  write(path: string, content: string): Promise<WriteResult> {
    return writeByPreparing(this, path, content);
  }
  edit(path: string, oldString: string, newString: string, replaceAll = false): Promise<EditResult> {
    return editByPreparing(this, path, oldString, newString, replaceAll);
  }
  currentText(path: string): Promise<{ text: string | null } | { error: string }> {
    return this.inner.currentText
      ? this.inner.currentText(path)
      : Promise.resolve({ error: `${path} cannot be read for a checkpoint.` });
  }
  deleteFile(path: string, expected: string): Promise<WriteResult> {
    return this.inner.deleteFile
      ? this.inner.deleteFile(path, expected)
      : Promise.resolve({ error: `${path} cannot be deleted here.` });
  }

  async commitChange(path: string, before: string | null, after: string): Promise<WriteResult> {
    // The earlier text is safe in the store before the file is touched.
    let kept: Awaited<ReturnType<CheckpointStore["keep"]>> | undefined;
    try {
      kept = await this.store.keep(before);
    } catch (error) {
      this.onError(`Checkpoint: could not keep ${path} before writing it: ${(error as Error).message}`);
    }
    const w = await this.inner.commitChange(path, before, after);
    if (kept === undefined) return w;
    if (w.error !== undefined) {
      this.store.release(kept);
      return w;
    }
    const written = w.path ?? path;
    let handed = false;
    try {
      const now = await this.currentText(written);
      const scope = callScope.getStore();
      const { conversationLength, toolCallId } = scope ?? this.position;
      const meta = {
        ...(toolCallId ? { toolCallId } : {}),
        ...(scope && scope.callId !== scope.toolCallId ? { callId: scope.callId } : {}),
      };
      const tooLarge =
        kept !== null && typeof kept === "object"
          ? ` (its earlier text, ${sizeText(kept.notKept)}, was over the size checkpoints keep: it cannot be restored)`
          : "";
      await this.store.checkpoint(this.taskId, {
        kind: "write",
        label: `${before === null ? "Created" : "Changed"} ${written}${tooLarge}`,
        conversationLength,
        ...(Object.keys(meta).length ? { meta } : {}),
      });
      const keptAfter = await this.store.keep("error" in now ? after : now.text);
      handed = true; // recordWrite releases both, whatever happens
      await this.store.recordWrite(this.taskId, written, kept, keptAfter);
    } catch (error) {
      if (!handed) this.store.release(kept);
      this.onError(`Checkpoint: could not record the write of ${written}: ${(error as Error).message}`);
    }
    return w;
  }
}

/**
 * Tells the checkpointing backend where in the conversation each tool call is (a conversation
 * restored to a write's checkpoint ends before the model's turn that made it), and records the
 * commands that ran: their changes are not restored, and a restore says so.
 */
export function checkpointsMiddleware(o: {
  store: CheckpointStore;
  taskId: string;
  position: CheckpointPosition;
  onError?: (message: string) => void;
}): Middleware {
  return {
    name: "checkpoints",
    async wrapToolCall(call, ctx, next) {
      // A subagent's writes keep the position of the `task` call that started it, and name
      // their own call too (its card's Restore).
      const outer = callScope.getStore();
      let scope: CallScope;
      if (ctx.subagentType === undefined) {
        const messages = ctx.state.messages;
        let turn = messages.length;
        while (turn > 0 && messages[turn - 1]!.role !== "assistant") turn--;
        o.position.conversationLength = Math.max(0, turn - 1);
        o.position.toolCallId = call.id;
        scope = { toolCallId: call.id, callId: call.id, conversationLength: o.position.conversationLength };
      } else
        scope = {
          ...(outer ?? {
            toolCallId: o.position.toolCallId ?? call.id,
            conversationLength: o.position.conversationLength,
          }),
          callId: call.id,
        };
      if (call.tool.kind === "execute" && typeof call.args.command === "string") {
        await o.store
          .recordCommand(o.taskId, call.args.command)
          .catch((e: unknown) => o.onError?.(`Checkpoint: could not record a command: ${String(e)}`));
      }
      return callScope.run(scope, () => next(call));
    },
  };
}
