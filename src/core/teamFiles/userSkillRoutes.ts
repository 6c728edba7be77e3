import { CompositeBackend } from "../backends/composite";
import { FilesystemBackend } from "../backends/filesystem";
import type { BackendProtocol } from "../backends/protocol";
import { ReadOnlyBackend } from "../backends/readOnly";
import type { Skill } from "./types";
import { USER_SKILLS_ROUTE } from "./userFolders";

/**
 * The agent's backend with each of the person's own skills (outside the workspace) reachable
 * read-only at `/.user-skills/<name>/`: a route to a backend rooted at that skill's folder, so the
 * workspace's guard stays as it is and nothing else of the person's home is reachable.
 */
export function withUserSkills(backend: BackendProtocol, skills: readonly Skill[]): BackendProtocol {
  const own = skills.filter((s) => s.realFolder && s.folder.startsWith(`${USER_SKILLS_ROUTE}/`));
  if (own.length === 0) return backend;
  const routes: Record<string, BackendProtocol> = {};
  for (const s of own) {
    routes[s.folder] = new ReadOnlyBackend(
      new FilesystemBackend({ rootDir: s.realFolder!, ripgrepPath: null }),
      `${s.folder} is one of your own skills' folders: the agent may read it, not change it.`,
    );
  }
  return new CompositeBackend(backend, routes, { unlisted: [USER_SKILLS_ROUTE] });
}
