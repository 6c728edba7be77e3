import type { BackendProtocol } from "../backends/protocol";
import { DiscoveryRun, TeamFileCache } from "./discoveryRun";
import { userTeamFiles, workspaceTeamFiles } from "./teamFileLocations";
import type { UserTeamFolder } from "./userFolders";
import type { TeamCatalog, TeamFileKind } from "./types";

export { TeamFileCache } from "./discoveryRun";

export interface DiscoverOptions {
  /** The workspace's files, through the guard (the agent's backend). */
  workspace?: BackendProtocol;
  /** The workspace folders as virtual prefixes: `["/"]`, or one per folder of a multi-root workspace. */
  roots?: readonly string[];
  /** The person's own folders (`~/.config/fathom`, `~/.claude`, `~/.agents`). */
  user?: readonly UserTeamFolder[];
  cache?: TeamFileCache;
  /** Only these kinds (default: all). */
  kinds?: readonly TeamFileKind[];
}

/**
 * Finds and reads every team file: in each workspace root through the workspace's backend (so
 * a link out of the workspace, a pipe, a device or a `.fathomignore`'d file is refused and said),
 * and in the person's folders through a backend rooted at each. Never throws: what cannot be read
 * is a problem in the catalog. Sizes are capped; a file changed since the last discovery (same
 * cache) is read again, the others are not.
 */
export async function discoverTeamFiles(o: DiscoverOptions): Promise<TeamCatalog> {
  const run = new DiscoveryRun(o.cache ?? new TeamFileCache());
  const want = (k: TeamFileKind) => !o.kinds || o.kinds.includes(k);
  // One source at a time, so the first definition of a name is always the same one.
  if (o.workspace)
    for (const root of o.roots ?? ["/"]) await run.settle(workspaceTeamFiles(run, o.workspace, root, want));
  for (const folder of o.user ?? []) await run.settle(userTeamFiles(run, folder, want));
  return run.finish();
}
