import type { BackendProtocol, FileInfo } from "../backends/protocol";
import { parseAgentFile } from "./agentFiles";
import { expandIncludes } from "./includes";
import { commandName, parsePromptFile } from "./promptFiles";
import { parseRuleFile } from "./ruleFiles";
import { parseSkillFile } from "./skillFiles";
import {
  badName,
  emptyCatalog,
  plainText,
  type AgentFormat,
  type CommandFormat,
  type RuleFormat,
  type TeamCatalog,
  type TeamFileKind,
  type TeamFileProblem,
  type TeamFileRef,
} from "./types";

/** Bytes read of a rules, prompt or agent file; of a SKILL.md only its front matter is needed here. */
const MAX_FILE_BYTES = 64 * 1024;
const MAX_SKILL_HEAD_BYTES = 20 * 1024;
/** Files read from one folder; more are named as a problem, not read. */
export const MAX_PER_FOLDER = 100;

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

/** A file found in a listing, and where it came from. */
export interface FoundFile {
  backend: BackendProtocol;
  vpath: string;
  info?: FileInfo;
  ref: TeamFileRef;
  name: string;
}

/** Where a skill's SKILL.md is shown and which folder the agent reads it from. */
export type SkillPlace = (
  vpath: string,
  skillFolder: string,
) => { ref: TeamFileRef; folder: string; realFolder?: string };

const stampOf = (info?: FileInfo) =>
  info?.size !== undefined && info.modified_at ? `${info.size}:${info.modified_at}` : undefined;
export const joinPath = (dir: string, name: string) => (dir === "/" ? `/${name}` : `${dir}/${name}`);
export const baseName = (p: string) => p.replace(/\/$/, "").slice(p.replace(/\/$/, "").lastIndexOf("/") + 1);

type Ordered = { [K in "rules" | "commands" | "skills" | "agents"]: TeamCatalog[K][] };

/**
 * One discovery: reads the files its sources name, concurrently, yet keeps the catalog in the
 * order the files were named (each call takes its slot before it reads), so the first definition
 * of a name is always the same one. Sizes are capped; what cannot be read is a problem, never a
 * throw; a file unchanged since the cache's last discovery is not read again.
 */
export class DiscoveryRun {
  private readonly jobs: Promise<void>[] = [];
  private settled = 0;
  private readonly ordered: Ordered = { rules: [], commands: [], skills: [], agents: [] };
  private readonly problems: TeamFileProblem[][] = [];

  constructor(private readonly cache: TeamFileCache) {}

  /** Runs one source (a workspace root, a person's folder) to its end, with every read it started. */
  async settle(source: Promise<void>): Promise<void> {
    this.jobs.push(source);
    // Jobs add jobs (a folder's listing starts its files' reads): wait until none are left.
    while (this.settled < this.jobs.length) {
      const end = this.jobs.length;
      await Promise.all(this.jobs.slice(this.settled, end));
      this.settled = end;
    }
  }

  problemSlot(): TeamFileProblem[] {
    const list: TeamFileProblem[] = [];
    this.problems.push(list);
    return list;
  }

  /** A folder's entries, at most `MAX_PER_FOLDER` (more are a problem in `out`). */
  async listing(
    backend: BackendProtocol,
    dir: string,
    kind: TeamFileKind,
    label: (p: string) => string,
    out: TeamFileProblem[],
  ): Promise<FileInfo[]> {
    const r = await backend.ls(dir);
    if (!r.files) return [];
    if (r.files.length > MAX_PER_FOLDER)
      out.push({
        kind,
        file: label(dir),
        message: `holds ${r.files.length} entries; only the first ${MAX_PER_FOLDER} are read`,
      });
    return r.files.slice(0, MAX_PER_FOLDER);
  }

  rule(f: FoundFile, format: RuleFormat, where: { folder?: string; root: string }): void {
    const out = this.slot("rules");
    const bad = this.problemSlot();
    this.jobs.push(
      this.cache
        // CLAUDE.md's imports may change without it: read it each time.
        .get(
          `rule:${format}:${f.ref.label}:${where.folder ?? ""}`,
          format === "CLAUDE.md" ? undefined : stampOf(f.info),
          async () => {
            const read = await readFound(f, "rules", MAX_FILE_BYTES);
            if ("problem" in read) return { problems: [read.problem] };
            let text = read.text;
            if (format === "CLAUDE.md") {
              const inc = await expandIncludes(text, f.vpath, async (p) => {
                const got = await f.backend.readText(p, MAX_FILE_BYTES);
                return got.text !== undefined ? { text: got.text } : { error: got.error ?? "unreadable" };
              });
              text = inc.text;
              if (inc.notes.length)
                return withNotes(
                  parseRuleFile(text, f.ref, format, where),
                  inc.notes.map((message) => ({ kind: "rules" as const, file: f.ref.label, message, note: true })),
                );
            }
            const parsed = parseRuleFile(text, f.ref, format, where);
            return read.truncated && "rule" in parsed
              ? withNotes(parsed, [
                  {
                    kind: "rules",
                    file: f.ref.label,
                    message: `only its first ${MAX_FILE_BYTES / 1024} KB are read`,
                    note: true,
                  },
                ])
              : parsed;
          },
        )
        .then((p) => {
          if ("rule" in p) out.push(p.rule);
          bad.push(...p.problems);
        }),
    );
  }

  command(f: FoundFile, format: CommandFormat): void {
    const why = badName(commandName(f.name, format));
    if (why) {
      this.problemSlot().push({ kind: "commands", file: plainText(f.ref.label), message: `skipped: ${why}` });
      return;
    }
    this.readAndParse(f, "commands", `command:${format}:${f.ref.label}`, (text) => {
      const p = parsePromptFile(text, f.ref, format, f.name);
      return "command" in p ? { item: p.command, problems: p.problems } : p;
    });
  }

  agent(f: FoundFile, format: AgentFormat): void {
    this.readAndParse(f, "agents", `agent:${format}:${f.ref.label}`, (text) => {
      const p = parseAgentFile(text, f.ref, format, f.name);
      return "agent" in p ? { item: p.agent, problems: p.problems } : p;
    });
  }

  /**
   * Takes the slots of a command's or an agent's file, then reads it (from the cache while it is
   * unchanged) and parses it: what it defines (`item`) and its problems go in their slots.
   */
  private readAndParse<K extends "commands" | "agents">(
    f: FoundFile,
    kind: K,
    key: string,
    parse: (text: string) => { item?: TeamCatalog[K][number]; problems: TeamFileProblem[] },
  ): void {
    const out: TeamCatalog[K][number][] = this.slot(kind);
    const bad = this.problemSlot();
    this.jobs.push(
      this.cache
        .get(key, stampOf(f.info), async () => {
          const read = await readFound(f, kind, MAX_FILE_BYTES);
          return "problem" in read ? { problems: [read.problem] } : parse(read.text);
        })
        .then((p) => {
          if (p.item) out.push(p.item);
          bad.push(...p.problems);
        }),
    );
  }

  /** `<dir>/<name>/SKILL.md` for each folder of `dir`. */
  skillsIn(backend: BackendProtocol, dir: string, place: SkillPlace, label: (p: string) => string): void {
    const out = this.slot("skills");
    const bad = this.problemSlot();
    this.jobs.push(
      (async () => {
        for (const entry of await this.listing(backend, dir, "skills", label, bad)) {
          if (!entry.is_dir) continue;
          const folderName = baseName(entry.path);
          const skillDir = joinPath(dir, folderName);
          const files = await backend.ls(skillDir);
          const info = files.files?.find((x) => baseName(x.path) === "SKILL.md" && !x.is_dir);
          if (!info) {
            bad.push({
              kind: "skills",
              file: label(skillDir),
              message: `skipped: no SKILL.md in it${files.error ? ` (${files.error})` : ""}`,
            });
            continue;
          }
          const at = place(joinPath(skillDir, "SKILL.md"), folderName);
          const parsed = await this.cache.get(`skill:${at.ref.label}`, stampOf(info), async () => {
            const r = await backend.readText(joinPath(skillDir, "SKILL.md"), MAX_SKILL_HEAD_BYTES);
            if (r.text === undefined)
              return {
                problems: [
                  {
                    kind: "skills" as const,
                    file: at.ref.label,
                    message: `not read: ${r.error ?? "it could not be read"}`,
                  },
                ],
              };
            return parseSkillFile(r.text, at.ref, {
              folder: at.folder,
              folderName,
              ...(at.realFolder ? { realFolder: at.realFolder } : {}),
            });
          });
          if ("skill" in parsed) out.push(parsed.skill);
          bad.push(...parsed.problems);
        }
      })(),
    );
  }

  /** The catalog, in the order the files were named; the first definition of each name wins. */
  finish(): TeamCatalog {
    this.cache.sweep();
    const catalog = emptyCatalog();
    catalog.problems = this.problems.flat();
    catalog.rules = this.ordered.rules.flat();
    catalog.commands = firstByName(this.ordered.commands.flat(), "commands", catalog.problems, (c) =>
      c.name.toLowerCase(),
    );
    catalog.skills = firstByName(this.ordered.skills.flat(), "skills", catalog.problems, (s) => s.name);
    catalog.agents = firstByName(this.ordered.agents.flat(), "agents", catalog.problems, (a) => a.name.toLowerCase());
    return catalog;
  }

  private slot<K extends keyof Ordered>(kind: K): TeamCatalog[K] {
    const list: TeamCatalog[K] = [];
    this.ordered[kind].push(list as never);
    return list;
  }
}

async function readFound(
  f: FoundFile,
  kind: TeamFileKind,
  bytes: number,
): Promise<{ text: string; truncated: boolean } | { problem: TeamFileProblem }> {
  const r = await f.backend.readText(f.vpath, bytes);
  if (r.text === undefined)
    return { problem: { kind, file: f.ref.label, message: `not read: ${r.error ?? "it could not be read"}` } };
  return { text: r.text, truncated: r.truncated === true };
}

/** The first definition of each name wins (the workspace's before the person's); the others are listed. */
function firstByName<T extends { name: string; file: TeamFileRef }>(
  items: T[],
  kind: TeamFileKind,
  problems: TeamFileProblem[],
  key: (t: T) => string,
): T[] {
  const seen = new Map<string, T>();
  for (const item of items) {
    const first = seen.get(key(item));
    if (first)
      problems.push({
        kind,
        file: item.file.label,
        message: `skipped: ${first.file.label} already defines "${item.name}"`,
      });
    else seen.set(key(item), item);
  }
  return [...seen.values()];
}

function withNotes<T extends { problems: TeamFileProblem[] }>(parsed: T, notes: TeamFileProblem[]): T {
  return { ...parsed, problems: [...parsed.problems, ...notes] };
}
