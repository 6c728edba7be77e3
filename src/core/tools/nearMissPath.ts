import type { BackendProtocol } from "../backends/protocol";

/** What a missing path most likely meant: one file, several to choose from, or nothing close. */
export type NearMiss = { path: string } | { candidates: string[] } | undefined;

const MAX_CANDIDATES = 5;

/** A path's shape with what models get wrong folded away: `./`, a missing leading `/`, letter case, a segment's leading dots. */
function shapeOf(path: string): string {
  const segments = path
    .replace(/\\/g, "/")
    .split("/")
    .filter((s) => s !== "" && s !== ".");
  return "/" + segments.map((s) => s.replace(/^\.+(?=[^.])/, "").toLowerCase()).join("/");
}

/**
 * The files a path the model asked for probably meant, when it does not exist: the same path but
 * for a leading dot or letter case (`/docs/x` for `/.docs/x`), or a path written from inside a
 * folder (`src/x.py` for `/pkg/src/x.py`). Looked up through the backend's own `glob`, so ignore
 * rules and the workspace guard apply as to any search. Small models lose tasks on such near
 * misses; one lookup saves the turns they spend guessing.
 */
export async function nearMissPath(backend: BackendProtocol, requested: string): Promise<NearMiss> {
  const wanted = shapeOf(requested);
  const name = wanted.slice(wanted.lastIndexOf("/") + 1);
  if (!name || /[*?[\]{}]/.test(name)) return undefined;
  // The file's own name, with and without a leading dot (glob's case rules are the backend's).
  const found = await backend.glob(`**/{${name},.${name}}`, "/");
  const paths = (found.files ?? []).filter((f) => !f.is_dir).map((f) => f.path);
  const exact = paths.filter((p) => shapeOf(p) === wanted);
  const matches = exact.length > 0 ? exact : paths.filter((p) => shapeOf(p).endsWith(wanted));
  if (matches.length === 1) return { path: matches[0]! };
  if (matches.length > 1) return { candidates: matches.slice(0, MAX_CANDIDATES) };
  return undefined;
}

/** Whether a backend's error says the file is not there (both backends word it so). */
export const isFileNotFound = (error: string): boolean => error.startsWith("File not found:");

/** The next call to suggest after a near miss that was not taken as meant. */
export function nearMissHint(near: NearMiss, tool: string): string {
  if (!near) return "";
  const list = "path" in near ? [near.path] : near.candidates;
  return ` Did you mean ${list.join(" or ")}? Call ${tool} with ${list.length === 1 ? "that path" : "one of them"}.`;
}
