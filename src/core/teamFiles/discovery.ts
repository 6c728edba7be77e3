import type { BackendProtocol, FileInfo } from "../backends/protocol";
import { parseAgentFile } from "./agentFiles";
import { expandIncludes } from "./includes";
import { commandName, parsePromptFile } from "./promptFiles";
import { parseRuleFile } from "./ruleFiles";
import { parseSkillFile } from "./skillFiles";
import { USER_SKILLS_ROUTE, type UserTeamFolder } from "./userFolders";
import { badName, emptyCatalog, plainText, type AgentFormat, type CommandFormat, type RuleFormat, type TeamCatalog, type TeamFileKind, type TeamFileProblem, type TeamFileRef } from "./types";

/** Bytes read of a rules, prompt or agent file; of a SKILL.md only its front matter is needed here. */
const MAX_FILE_BYTES = 64 * 1024;
const MAX_SKILL_HEAD_BYTES = 20 * 1024;
/** Files read from one folder; more are named as a problem, not read. */
const MAX_PER_FOLDER = 100;
/** Nested AGENTS.md / CLAUDE.md files listed. */
const MAX_NESTED = 200;

/** Parsed files by path and version (size and time), so a warm discovery reads only what changed. */
export class TeamFileCache {
  private entries = new Map<string, { stamp: string; value: unknown }>();
  private used = new Set<string>();

  get<T>(key: string, stamp: string | undefined, make: () => Promise<T>): Promise<T> {
    this.used.add(key);
    const hit = stamp !== undefined ? this.entries.get(key) : undefined;
    if (hit && hit.stamp === stamp) return Promise.resolve(hit.value as T);
    return make().then((value) => {
      if (stamp !== undefined) this.entries.set(key, { stamp, value });
      return value;
    });
  }

  /** Forgets files not seen since the last call. */
  sweep(): void {
    for (const key of this.entries.keys()) if (!this.used.has(key)) this.entries.delete(key);
    this.used = new Set();
  }
}

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

/** A file found in a listing, and where it came from. */
interface Found { backend: BackendProtocol; vpath: string; info?: FileInfo; ref: TeamFileRef; name: string }

const stampOf = (info?: FileInfo) => (info?.size !== undefined && info.modified_at ? `${info.size}:${info.modified_at}` : undefined);
const join = (dir: string, name: string) => (dir === "/" ? `/${name}` : `${dir}/${name}`);
const baseName = (p: string) => p.replace(/\/$/, "").slice(p.replace(/\/$/, "").lastIndexOf("/") + 1);

/**
 * Finds and reads every team file: in each workspace root through the workspace's backend (so
 * a link out of the workspace, a pipe, a device or a `.fathomignore`'d file is refused and said),
 * and in the person's folders through a backend rooted at each. Never throws: what cannot be read
 * is a problem in the catalog. Sizes are capped; a file changed since the last discovery (same
 * cache) is read again, the others are not.
 */
export async function discoverTeamFiles(o: DiscoverOptions): Promise<TeamCatalog> {
  const catalog = emptyCatalog();
  const cache = o.cache ?? new TeamFileCache();
  const want = (k: TeamFileKind) => !o.kinds || o.kinds.includes(k);
  const jobs: Promise<void>[] = [];
  let settled = 0;
  const ordered: { rules: TeamCatalog["rules"][]; commands: TeamCatalog["commands"][]; skills: TeamCatalog["skills"][]; agents: TeamCatalog["agents"][] } = { rules: [], commands: [], skills: [], agents: [] };
  const problems: TeamFileProblem[][] = [];
  const slot = <K extends keyof typeof ordered>(k: K) => {
    const list: TeamCatalog[K] = [];
    ordered[k].push(list as never);
    return list;
  };
  const problemSlot = () => {
    const list: TeamFileProblem[] = [];
    problems.push(list);
    return list;
  };

  const listing = async (backend: BackendProtocol, dir: string, kind: TeamFileKind, label: (p: string) => string, out: TeamFileProblem[]): Promise<FileInfo[]> => {
    const r = await backend.ls(dir);
    if (!r.files) return [];
    if (r.files.length > MAX_PER_FOLDER) out.push({ kind, file: label(dir), message: `holds ${r.files.length} entries; only the first ${MAX_PER_FOLDER} are read` });
    return r.files.slice(0, MAX_PER_FOLDER);
  };

  const readFile = async (f: Found, kind: TeamFileKind, bytes: number): Promise<{ text: string; truncated: boolean } | { problem: TeamFileProblem }> => {
    const r = await f.backend.readText(f.vpath, bytes);
    if (r.text === undefined) return { problem: { kind, file: f.ref.label, message: `not read: ${r.error ?? "it could not be read"}` } };
    return { text: r.text, truncated: r.truncated === true };
  };

  const rule = (f: Found, format: RuleFormat, where: { folder?: string; root: string }) => {
    const out = slot("rules");
    const bad = problemSlot();
    jobs.push(
      cache
        // CLAUDE.md's imports may change without it: read it each time.
        .get(`rule:${format}:${f.ref.label}:${where.folder ?? ""}`, format === "CLAUDE.md" ? undefined : stampOf(f.info), async () => {
          const read = await readFile(f, "rules", MAX_FILE_BYTES);
          if ("problem" in read) return { problems: [read.problem] };
          let text = read.text;
          if (format === "CLAUDE.md") {
            const inc = await expandIncludes(text, f.vpath, async (p) => {
              const got = await f.backend.readText(p, MAX_FILE_BYTES);
              return got.text !== undefined ? { text: got.text } : { error: got.error ?? "unreadable" };
            });
            text = inc.text;
            if (inc.notes.length) return withNotes(parseRuleFile(text, f.ref, format, where), inc.notes.map((message) => ({ kind: "rules" as const, file: f.ref.label, message, note: true })));
          }
          const parsed = parseRuleFile(text, f.ref, format, where);
          return read.truncated && "rule" in parsed ? withNotes(parsed, [{ kind: "rules", file: f.ref.label, message: `only its first ${MAX_FILE_BYTES / 1024} KB are read`, note: true }]) : parsed;
        })
        .then((p) => {
          if ("rule" in p) out.push(p.rule);
          bad.push(...p.problems);
        }),
    );
  };

  const command = (f: Found, format: CommandFormat) => {
    const out = slot("commands");
    const bad = problemSlot();
    const why = badName(commandName(f.name, format));
    if (why) return void bad.push({ kind: "commands", file: plainText(f.ref.label), message: `skipped: ${why}` });
    jobs.push(
      cache
        .get(`command:${format}:${f.ref.label}`, stampOf(f.info), async () => {
          const read = await readFile(f, "commands", MAX_FILE_BYTES);
          return "problem" in read ? { problems: [read.problem] } : parsePromptFile(read.text, f.ref, format, f.name);
        })
        .then((p) => {
          if ("command" in p) out.push(p.command);
          bad.push(...p.problems);
        }),
    );
  };

  const agent = (f: Found, format: AgentFormat) => {
    const out = slot("agents");
    const bad = problemSlot();
    jobs.push(
      cache
        .get(`agent:${format}:${f.ref.label}`, stampOf(f.info), async () => {
          const read = await readFile(f, "agents", MAX_FILE_BYTES);
          return "problem" in read ? { problems: [read.problem] } : parseAgentFile(read.text, f.ref, format, f.name);
        })
        .then((p) => {
          if ("agent" in p) out.push(p.agent);
          bad.push(...p.problems);
        }),
    );
  };

  /** `<dir>/<name>/SKILL.md` for each folder of `dir`. */
  const skillsIn = (backend: BackendProtocol, dir: string, ref: (vpath: string, skillFolder: string) => { ref: TeamFileRef; folder: string; realFolder?: string }, label: (p: string) => string) => {
    const out = slot("skills");
    const bad = problemSlot();
    jobs.push(
      (async () => {
        for (const entry of await listing(backend, dir, "skills", label, bad)) {
          if (!entry.is_dir) continue;
          const folderName = baseName(entry.path);
          const skillDir = join(dir, folderName);
          const files = await backend.ls(skillDir);
          const info = files.files?.find((x) => baseName(x.path) === "SKILL.md" && !x.is_dir);
          if (!info) {
            bad.push({ kind: "skills", file: label(skillDir), message: `skipped: no SKILL.md in it${files.error ? ` (${files.error})` : ""}` });
            continue;
          }
          const at = ref(join(skillDir, "SKILL.md"), folderName);
          const parsed = await cache.get(`skill:${at.ref.label}`, stampOf(info), async () => {
            const r = await backend.readText(join(skillDir, "SKILL.md"), MAX_SKILL_HEAD_BYTES);
            if (r.text === undefined) return { problems: [{ kind: "skills" as const, file: at.ref.label, message: `not read: ${r.error ?? "it could not be read"}` }] };
            return parseSkillFile(r.text, at.ref, { folder: at.folder, folderName, ...(at.realFolder ? { realFolder: at.realFolder } : {}) });
          });
          if ("skill" in parsed) out.push(parsed.skill);
          bad.push(...parsed.problems);
        }
      })(),
    );
  };

  if (o.workspace) {
    const ws = o.workspace;
    const wsRef = (vpath: string): TeamFileRef => ({ path: vpath, label: plainText(vpath), origin: "workspace" });
    const found = (vpath: string, info?: FileInfo): Found => ({ backend: ws, vpath, ref: wsRef(vpath), name: baseName(vpath), ...(info ? { info } : {}) });
    for (const root of o.roots ?? ["/"]) {
      await settle(
        (async () => {
          const top = (await ws.ls(root)).files ?? [];
          const at = (name: string) => top.find((f) => baseName(f.path) === name);
          const bad = problemSlot();
          const files = async (dir: string, kind: TeamFileKind, filter: (name: string) => boolean) =>
            (await listing(ws, dir, kind, (p) => p, bad)).filter((f) => !f.is_dir && filter(baseName(f.path)));
          if (want("rules")) {
            for (const [name, format] of [["AGENTS.md", "AGENTS.md"], ["CLAUDE.md", "CLAUDE.md"]] as const) {
              const f = at(name);
              if (f && !f.is_dir) rule(found(join(root, name), f), format, { root });
            }
            const cline = at(".clinerules");
            if (cline && !cline.is_dir) rule(found(join(root, ".clinerules"), cline), "clinerules", { root });
            else if (cline?.is_dir) for (const f of await files(join(root, ".clinerules"), "rules", (n) => /\.(md|txt)$/i.test(n))) rule(found(f.path, f), "clinerules", { root });
            if (at(".github")?.is_dir) {
              for (const f of await files(join(root, ".github"), "rules", (n) => n === "copilot-instructions.md")) rule(found(f.path, f), "copilot-instructions", { root });
              for (const f of await files(join(root, ".github/instructions"), "rules", (n) => /\.instructions\.md$/i.test(n))) rule(found(f.path, f), "instructions.md", { root });
            }
            if (at(".cursor")?.is_dir) for (const f of await files(join(root, ".cursor/rules"), "rules", (n) => /\.mdc$/i.test(n))) rule(found(f.path, f), "cursor-mdc", { root });
            const nested = await ws.glob("**/{AGENTS.md,CLAUDE.md}", root);
            const list = (nested.files ?? []).filter((f) => f.path !== join(root, "AGENTS.md") && f.path !== join(root, "CLAUDE.md"));
            if (list.length > MAX_NESTED) bad.push({ kind: "rules", file: `${root}**/AGENTS.md`, message: `${list.length} nested rules files; only the first ${MAX_NESTED} are read` });
            for (const f of list.slice(0, MAX_NESTED)) rule(found(f.path, f), baseName(f.path) === "CLAUDE.md" ? "CLAUDE.md" : "AGENTS.md", { folder: f.path.slice(0, f.path.lastIndexOf("/")) || "/", root });
          }
          if (want("commands")) {
            if (at(".github")?.is_dir) for (const f of await files(join(root, ".github/prompts"), "commands", (n) => /\.prompt\.md$/i.test(n))) command(found(f.path, f), "copilot-prompt");
            if (at(".claude")?.is_dir) {
              const commands = await ws.glob("**/*.md", join(root, ".claude/commands"));
              for (const f of (commands.files ?? []).slice(0, MAX_PER_FOLDER)) command(found(f.path, f), "claude-command");
            }
            if (at(".clinerules")?.is_dir) for (const f of await files(join(root, ".clinerules/workflows"), "commands", (n) => /\.md$/i.test(n))) command(found(f.path, f), "cline-workflow");
          }
          if (want("skills")) {
            for (const base of [".github", ".claude", ".agents"]) {
              if (at(base)?.is_dir) skillsIn(ws, join(root, `${base}/skills`), (vpath, name) => ({ ref: wsRef(vpath), folder: join(root, `${base}/skills/${name}`) }), (p) => p);
            }
          }
          if (want("agents")) {
            if (at(".github")?.is_dir) for (const f of await files(join(root, ".github/agents"), "agents", (n) => /\.agent\.md$/i.test(n))) agent(found(f.path, f), "copilot-agent");
            if (at(".claude")?.is_dir) for (const f of await files(join(root, ".claude/agents"), "agents", (n) => /\.md$/i.test(n))) agent(found(f.path, f), "claude-agent");
          }
        })(),
      );
    }
  }

  // One source at a time, so the first definition of a name is always the same one.
  async function settle(source: Promise<void>): Promise<void> {
    jobs.push(source);
    // Jobs add jobs (a folder's listing starts its files' reads): wait until none are left.
    while (settled < jobs.length) {
      const end = jobs.length;
      await Promise.all(jobs.slice(settled, end));
      settled = end;
    }
  }

  for (const folder of o.user ?? []) {
    const userRef = (vpath: string): TeamFileRef => ({ label: plainText(`${folder.label}${vpath}`), origin: "user", realPath: `${folder.dir}${vpath}` });
    const userFound = (vpath: string, info?: FileInfo): Found => ({ backend: folder.backend, vpath, ref: userRef(vpath), name: baseName(vpath), ...(info ? { info } : {}) });
    const label = (p: string) => `${folder.label}${p}`;
    await settle(
      (async () => {
        const top = (await folder.backend.ls("/")).files ?? [];
        const at = (name: string) => top.find((f) => baseName(f.path) === name);
        const bad = problemSlot();
        if (want("rules")) {
          for (const name of folder.rules ?? []) {
            const f = at(name);
            if (f && !f.is_dir) rule(userFound(`/${name}`, f), name === "CLAUDE.md" ? "CLAUDE.md" : "AGENTS.md", { root: "/" });
          }
        }
        if (want("commands") && folder.prompts && at(folder.prompts)?.is_dir) {
          for (const f of await listing(folder.backend, `/${folder.prompts}`, "commands", label, bad)) {
            if (!f.is_dir && /\.md$/i.test(f.path)) command(userFound(f.path, f), folder.promptFormat ?? "fathom-prompt");
          }
        }
        if (want("skills") && at("skills")?.is_dir) {
          skillsIn(folder.backend, "/skills", (vpath, name) => ({ ref: { ...userRef(vpath), path: `${USER_SKILLS_ROUTE}/${name}/SKILL.md` }, folder: `${USER_SKILLS_ROUTE}/${name}`, realFolder: `${folder.dir}/skills/${name}` }), label);
        }
        if (want("agents") && at("agents")?.is_dir) {
          for (const f of await listing(folder.backend, "/agents", "agents", label, bad)) {
            if (!f.is_dir && /\.md$/i.test(f.path)) agent(userFound(f.path, f), /\.agent\.md$/i.test(f.path) ? "copilot-agent" : folder.agentFormat ?? "fathom-agent");
          }
        }
      })(),
    );
  }

  cache.sweep();
  catalog.problems = problems.flat();
  catalog.rules = ordered.rules.flat();
  catalog.commands = firstByName(ordered.commands.flat(), "commands", catalog.problems, (c) => c.name.toLowerCase());
  catalog.skills = firstByName(ordered.skills.flat(), "skills", catalog.problems, (s) => s.name);
  catalog.agents = firstByName(ordered.agents.flat(), "agents", catalog.problems, (a) => a.name.toLowerCase());
  return catalog;
}

/** The first definition of each name wins (the workspace's before the person's); the others are listed. */
function firstByName<T extends { name: string; file: TeamFileRef }>(items: T[], kind: TeamFileKind, problems: TeamFileProblem[], key: (t: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) {
    const first = seen.get(key(item));
    if (first) problems.push({ kind, file: item.file.label, message: `skipped: ${first.file.label} already defines "${item.name}"` });
    else seen.set(key(item), item);
  }
  return [...seen.values()];
}

function withNotes<T extends { problems: TeamFileProblem[] }>(parsed: T, notes: TeamFileProblem[]): T {
  return { ...parsed, problems: [...parsed.problems, ...notes] };
}
