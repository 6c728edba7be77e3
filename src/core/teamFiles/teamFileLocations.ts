import type { BackendProtocol, FileInfo } from "../backends/protocol";
import { baseName, joinPath as join, MAX_PER_FOLDER, type DiscoveryRun, type FoundFile } from "./discoveryRun";
import { USER_SKILLS_ROUTE, type UserTeamFolder } from "./userFolders";
import { plainText, type TeamFileKind, type TeamFileRef } from "./types";

/** Nested AGENTS.md / CLAUDE.md files listed. */
const MAX_NESTED = 200;

/**
 * Where each dialect keeps its team files in a workspace root: the one place that knows the
 * layouts (AGENTS.md, Claude Code, Cline, Copilot, Cursor). A new dialect is a line here and a
 * parser beside the others. Listed in precedence order: the first definition of a name wins.
 */
export async function workspaceTeamFiles(
  run: DiscoveryRun,
  ws: BackendProtocol,
  root: string,
  want: (k: TeamFileKind) => boolean,
): Promise<void> {
  const wsRef = (vpath: string): TeamFileRef => ({ path: vpath, label: plainText(vpath), origin: "workspace" });
  const found = (vpath: string, info?: FileInfo): FoundFile => ({
    backend: ws,
    vpath,
    ref: wsRef(vpath),
    name: baseName(vpath),
    ...(info ? { info } : {}),
  });
  const top = (await ws.ls(root)).files ?? [];
  const at = (name: string) => top.find((f) => baseName(f.path) === name);
  const bad = run.problemSlot();
  const files = async (dir: string, kind: TeamFileKind, filter: (name: string) => boolean) =>
    (await run.listing(ws, dir, kind, (p) => p, bad)).filter((f) => !f.is_dir && filter(baseName(f.path)));
  if (want("rules")) {
    for (const [name, format] of [
      ["AGENTS.md", "AGENTS.md"],
      ["CLAUDE.md", "CLAUDE.md"],
    ] as const) {
      const f = at(name);
      if (f && !f.is_dir) run.rule(found(join(root, name), f), format, { root });
    }
    const cline = at(".clinerules");
    if (cline && !cline.is_dir) run.rule(found(join(root, ".clinerules"), cline), "clinerules", { root });
    else if (cline?.is_dir)
      for (const f of await files(join(root, ".clinerules"), "rules", (n) => /\.(md|txt)$/i.test(n)))
        run.rule(found(f.path, f), "clinerules", { root });
    if (at(".github")?.is_dir) {
      for (const f of await files(join(root, ".github"), "rules", (n) => n === "copilot-instructions.md"))
        run.rule(found(f.path, f), "copilot-instructions", { root });
      for (const f of await files(join(root, ".github/instructions"), "rules", (n) => /\.instructions\.md$/i.test(n)))
        run.rule(found(f.path, f), "instructions.md", { root });
    }
    if (at(".cursor")?.is_dir)
      for (const f of await files(join(root, ".cursor/rules"), "rules", (n) => /\.mdc$/i.test(n)))
        run.rule(found(f.path, f), "cursor-mdc", { root });
    const nested = await ws.glob("**/{AGENTS.md,CLAUDE.md}", root);
    const list = (nested.files ?? []).filter(
      (f) => f.path !== join(root, "AGENTS.md") && f.path !== join(root, "CLAUDE.md"),
    );
    if (list.length > MAX_NESTED)
      bad.push({
        kind: "rules",
        file: `${root}**/AGENTS.md`,
        message: `${list.length} nested rules files; only the first ${MAX_NESTED} are read`,
      });
    for (const f of list.slice(0, MAX_NESTED))
      run.rule(found(f.path, f), baseName(f.path) === "CLAUDE.md" ? "CLAUDE.md" : "AGENTS.md", {
        folder: f.path.slice(0, f.path.lastIndexOf("/")) || "/",
        root,
      });
  }
  if (want("commands")) {
    if (at(".github")?.is_dir)
      for (const f of await files(join(root, ".github/prompts"), "commands", (n) => /\.prompt\.md$/i.test(n)))
        run.command(found(f.path, f), "copilot-prompt");
    if (at(".claude")?.is_dir) {
      const commands = await ws.glob("**/*.md", join(root, ".claude/commands"));
      for (const f of (commands.files ?? []).slice(0, MAX_PER_FOLDER)) run.command(found(f.path, f), "claude-command");
    }
    if (at(".clinerules")?.is_dir)
      for (const f of await files(join(root, ".clinerules/workflows"), "commands", (n) => /\.md$/i.test(n)))
        run.command(found(f.path, f), "cline-workflow");
  }
  if (want("skills")) {
    for (const base of [".github", ".claude", ".agents"]) {
      if (at(base)?.is_dir)
        run.skillsIn(
          ws,
          join(root, `${base}/skills`),
          (vpath, name) => ({ ref: wsRef(vpath), folder: join(root, `${base}/skills/${name}`) }),
          (p) => p,
        );
    }
  }
  if (want("agents")) {
    if (at(".github")?.is_dir)
      for (const f of await files(join(root, ".github/agents"), "agents", (n) => /\.agent\.md$/i.test(n)))
        run.agent(found(f.path, f), "copilot-agent");
    if (at(".claude")?.is_dir)
      for (const f of await files(join(root, ".claude/agents"), "agents", (n) => /\.md$/i.test(n)))
        run.agent(found(f.path, f), "claude-agent");
  }
}

/** Where the person's own team files are in one of their folders (`UserTeamFolder` says which it reads). */
export async function userTeamFiles(
  run: DiscoveryRun,
  folder: UserTeamFolder,
  want: (k: TeamFileKind) => boolean,
): Promise<void> {
  const userRef = (vpath: string): TeamFileRef => ({
    label: plainText(`${folder.label}${vpath}`),
    origin: "user",
    realPath: `${folder.dir}${vpath}`,
  });
  const userFound = (vpath: string, info?: FileInfo): FoundFile => ({
    backend: folder.backend,
    vpath,
    ref: userRef(vpath),
    name: baseName(vpath),
    ...(info ? { info } : {}),
  });
  const label = (p: string) => `${folder.label}${p}`;
  const top = (await folder.backend.ls("/")).files ?? [];
  const at = (name: string) => top.find((f) => baseName(f.path) === name);
  const bad = run.problemSlot();
  if (want("rules")) {
    for (const name of folder.rules ?? []) {
      const f = at(name);
      if (f && !f.is_dir)
        run.rule(userFound(`/${name}`, f), name === "CLAUDE.md" ? "CLAUDE.md" : "AGENTS.md", { root: "/" });
    }
  }
  if (want("commands") && folder.prompts && at(folder.prompts)?.is_dir) {
    for (const f of await run.listing(folder.backend, `/${folder.prompts}`, "commands", label, bad)) {
      if (!f.is_dir && /\.md$/i.test(f.path)) run.command(userFound(f.path, f), folder.promptFormat ?? "fathom-prompt");
    }
  }
  if (want("skills") && at("skills")?.is_dir) {
    run.skillsIn(
      folder.backend,
      "/skills",
      (vpath, name) => ({
        ref: { ...userRef(vpath), path: `${USER_SKILLS_ROUTE}/${name}/SKILL.md` },
        folder: `${USER_SKILLS_ROUTE}/${name}`,
        realFolder: `${folder.dir}/skills/${name}`,
      }),
      label,
    );
  }
  if (want("agents") && at("agents")?.is_dir) {
    for (const f of await run.listing(folder.backend, "/agents", "agents", label, bad)) {
      if (!f.is_dir && /\.md$/i.test(f.path))
        run.agent(
          userFound(f.path, f),
          /\.agent\.md$/i.test(f.path) ? "copilot-agent" : (folder.agentFormat ?? "fathom-agent"),
        );
    }
  }
}
