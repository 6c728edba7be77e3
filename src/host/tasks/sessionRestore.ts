import type { BackendProtocol, CheckpointStore } from "../../core";
import { ChangesActions } from "./changesActions";
import { RestoreActions } from "./restoreActions";
import type { TaskParts } from "./openTask";

/** The Restore actions of a chat session, on the same parts of the open task its runs have. */
export function restoreActionsFor(
  parts: TaskParts,
  isRunning: () => boolean,
  store: CheckpointStore,
  backend: () => BackendProtocol,
  runEnds: () => Promise<void>,
): RestoreActions {
  const { env, task, viewModel, saves, notify } = parts;
  return new RestoreActions(
    {
      store,
      backend,
      compare: (path, now, restored) => env.compareCheckpoint?.(path, now, restored) ?? Promise.resolve(),
      log: env.log,
    },
    {
      get state() {
        return viewModel.state;
      },
      get isRunning() {
        return isRunning();
      },
      runEnds,
      runState: () => task.runState,
      rawIdOf: (itemId) => viewModel.rawIdOf(itemId),
      setConversation: (items, runState) => {
        viewModel.state.items = items;
        task.runState = runState;
        notify.stateChanged();
        saves.flush();
      },
      setPreview: (preview) => viewModel.emit({ type: "restorePreview", preview }),
      notice: (level, text) => viewModel.notice(level, text),
      fillComposer: (text) => viewModel.emit({ type: "composerText", text }),
    },
  );
}

/** The Changes list of a chat session: Undo writes where the task worked; what was undone waits for the model's next turn. */
export function changesActionsFor(
  parts: TaskParts,
  store: CheckpointStore,
  backend: () => BackendProtocol,
): ChangesActions {
  const { env, task, viewModel } = parts;
  return new ChangesActions(
    {
      store,
      backend,
      compare: (path, base, created) => env.compareChanges?.(path, base, created, task.root) ?? Promise.resolve(),
      log: env.log,
    },
    {
      get state() {
        return viewModel.state;
      },
      setChanges: (changes) => viewModel.emit({ type: "changes", changes }),
      rawIdOf: (itemId) => viewModel.rawIdOf(itemId),
      inWorktree: () => task.root !== undefined,
      notice: (level, text) => viewModel.notice(level, text),
      tellModel: (note) => (task.reviewNotes ??= []).push(note),
    },
  );
}
