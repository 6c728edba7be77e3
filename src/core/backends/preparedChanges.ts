import type { BackendProtocol, EditResult, WriteResult } from "./protocol";

type Preparing = Pick<BackendProtocol, "prepareWrite" | "prepareEdit" | "commitChange">;

/** `write` as every backend does it: prepare the whole-file change, then commit it. */
export async function writeByPreparing(backend: Preparing, path: string, content: string): Promise<WriteResult> {
  const p = await backend.prepareWrite(path, content);
  return "error" in p ? p : backend.commitChange(p.path, p.before, p.after);
}

/** `edit` as every backend does it: prepare, commit, and report the occurrences replaced. */
export async function editByPreparing(
  backend: Preparing,
  path: string,
  oldString: string,
  newString: string,
  replaceAll = false,
): Promise<EditResult> {
  const p = await backend.prepareEdit(path, oldString, newString, replaceAll);
  if ("error" in p) return p;
  const w = await backend.commitChange(p.path, p.before, p.after);
  return w.error !== undefined ? w : { path: w.path ?? p.path, occurrences: p.occurrences };
}
