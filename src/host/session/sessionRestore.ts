import type { BackendProtocol, CheckpointStore } from "../../core";
import { RestoreActions } from "./restoreActions";
import type { RunOwner } from "./taskRun";

/** The Restore actions of a chat session, reading it through the same live view its runs have. */
export function restoreActionsFor(owner: RunOwner, store: CheckpointStore, backend: () => BackendProtocol, runEnds: () => Promise<void>): RestoreActions {
  const { env } = owner;
  return new RestoreActions(
    { store, backend, compare: (path, now, restored) => env.compareCheckpoint?.(path, now, restored) ?? Promise.resolve(), log: env.log },
    {
      get state() {
        return owner.state;
      },
      get isRunning() {
        return owner.isRunning;
      },
      runEnds,
      runState: () => owner.task.runState,
      rawIdOf: (itemId) => owner.viewModel.rawIdOf(itemId),
      setConversation: (items, runState) => {
        owner.state.items = items;
        owner.task.runState = runState;
        owner.postState();
        owner.saves.flush();
      },
      setPreview: (preview) => owner.viewModel.emit({ type: "restorePreview", preview }),
      notice: (level, text) => owner.viewModel.notice(level, text),
      fillComposer: (text) => owner.viewModel.emit({ type: "composerText", text }),
    },
  );
}
