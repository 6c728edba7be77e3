import * as os from "node:os";
import * as nodePath from "node:path";
import { FilesystemBackend } from "../backends/filesystem";
import type { BackendProtocol } from "../backends/protocol";
import type { AgentFormat, CommandFormat } from "./types";

/**
 * Where the agent reads the person's own skills: each skill's folder is a read-only route of
 * the agent's backend under this prefix (`/.user-skills/<name>/…`). The guard is not widened: the
 * route is a backend rooted at that one folder.
 */
export const USER_SKILLS_ROUTE = "/.user-skills";

/** One of the person's folders of team files, and what Fathom reads in it. */
export interface UserTeamFolder {
  /** How its files are shown (`~/.config/fathom`). */
  label: string;
  /** The folder on disk. */
  dir: string;
  /** Reads in it, confined to it (a link out of it is refused). */
  backend: BackendProtocol;
  /** Rules files at its top (`AGENTS.md`, `CLAUDE.md`). */
  rules?: readonly string[];
  /** A folder of prompt files (slash commands). */
  prompts?: string;
  promptFormat?: CommandFormat;
  agentFormat?: AgentFormat;
}

/**
 * The person's folders: Fathom's own (`$XDG_CONFIG_HOME/fathom`: AGENTS.md, prompts/, skills/,
 * agents/), Claude Code's (`~/.claude`: CLAUDE.md, commands/, skills/, agents/) and the shared
 * `~/.agents` (skills/). A folder that does not exist costs one failed listing.
 */
export function userTeamFolders(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): UserTeamFolder[] {
  const config = env.XDG_CONFIG_HOME || nodePath.join(home, ".config");
  const shown = (dir: string) =>
    dir.startsWith(home + nodePath.sep) ? `~/${nodePath.relative(home, dir).split(nodePath.sep).join("/")}` : dir;
  const folder = (dir: string, o: Omit<UserTeamFolder, "label" | "dir" | "backend">): UserTeamFolder => ({
    label: shown(dir),
    dir,
    backend: new FilesystemBackend({ rootDir: dir, ripgrepPath: null }),
    ...o,
  });
  return [
    folder(nodePath.join(config, "fathom"), {
      rules: ["AGENTS.md"],
      prompts: "prompts",
      promptFormat: "fathom-prompt",
      agentFormat: "fathom-agent",
    }),
    folder(nodePath.join(home, ".claude"), {
      rules: ["CLAUDE.md"],
      prompts: "commands",
      promptFormat: "claude-command",
      agentFormat: "claude-agent",
    }),
    folder(nodePath.join(home, ".agents"), {}),
  ];
}
