/**
 * Which folders are Fathom's demo: those "Fathom: Try the Demo Task" made, remembered in the
 * extension's global state. Only Fathom writes that state, so no repository can claim to be the
 * demo and switch Fathom to a recorded model: a folder's own files are never asked.
 *
 * No `vscode` import: the state is passed in (the extension's `globalState`, a fake in tests).
 */
import * as path from "node:path";

/** The part of `vscode.Memento` used here. */
export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export const DEMO_FOLDERS_KEY = "fathom.demoFolders";
/** Demo folders remembered (newest first); older ones are forgotten and deleted. */
export const DEMO_FOLDERS_KEPT = 3;

function demoFolders(state: StateStore): string[] {
  const value = state.get<unknown>(DEMO_FOLDERS_KEY);
  return Array.isArray(value) ? value.filter((f): f is string => typeof f === "string") : [];
}

/** The window is the demo's: its one folder is one Try the Demo Task made. */
export function isDemoWindow(state: StateStore, folders: readonly string[]): boolean {
  if (folders.length !== 1) return false;
  return demoFolders(state).includes(path.resolve(folders[0]!));
}

/** Remembers a new demo folder; returns the folders no longer remembered (for the caller to delete). */
export async function rememberDemoFolder(state: StateStore, folder: string): Promise<string[]> {
  const added = path.resolve(folder);
  const all = [added, ...demoFolders(state).filter((f) => f !== added)];
  await state.update(DEMO_FOLDERS_KEY, all.slice(0, DEMO_FOLDERS_KEPT));
  return all.slice(DEMO_FOLDERS_KEPT);
}
