import { Minimatch } from "minimatch";
import { FilesystemBackend } from "../backends/filesystem";
import { normalizeVirtualPath } from "../backends/pathGuard";
import type { BackendProtocol } from "../backends/protocol";
import type { RunState } from "../run/runState";
import { discoverTeamFiles } from "../teamFiles/discovery";
import { describeScope } from "../teamFiles/ruleFiles";
import type { RuleFile, TeamCatalog, TeamFileProblem } from "../teamFiles/types";
import type { Middleware, RunContext } from "./types";

export const RULES_FILE = "AGENTS.md";
/** All rules of a conversation together (system prompt and those added on the way), in characters. */
export const RULES_BUDGET_CHARS = 32_000;
/** Tools whose file a folder's or a glob's rules start to apply to. */
const TOUCHING = new Set(["read_file", "write_file", "edit_file", "edit_selection"]);
const MENTION = /(?:^|\s)@(\/[^\s"'`<>|]+)/g;

export interface RulesOptions {
  workspaceRoot: string;
  backend?: BackendProtocol;
  /** The team files found (the host's, kept fresh by a watcher; the CLI's, read at start). Absent: the workspace's rules are found at each run. */
  catalog?: TeamCatalog;
}

/**
 * The rules teams keep for agents, each in its own format's meaning (../teamFiles/ruleFiles.ts):
 * rules that always apply (root `AGENTS.md`, `CLAUDE.md`, `.github/copilot-instructions.md`,
 * `.clinerules`, `alwaysApply` ones, the person's own) are in the system prompt; a folder's
 * `AGENTS.md` and rules with globs join the conversation with the first file the task reads or
 * writes there (appended to that tool result, nearest folder first), each once; rules offered by
 * their description are listed for the model to read. All of it within one budget, with the cut
 * said. Rules are text for the model: nothing in them changes what Fathom may do.
 */
export function rulesMiddleware(options: RulesOptions): Middleware {
  let found: Promise<TeamCatalog> | undefined;
  const catalog = (): Promise<TeamCatalog> => {
    if (options.catalog) return Promise.resolve(options.catalog);
    const backend = options.backend ?? new FilesystemBackend({ rootDir: options.workspaceRoot, ripgrepPath: null });
    // Read at each run's start (edits apply to the next message), as the system prompt is made.
    return (found ??= discoverTeamFiles({ workspace: backend, kinds: ["rules"] }));
  };
  const seen = new WeakMap<RunState, { paths: Set<string>; used: number }>();
  const ledger = (state: RunState, rules: readonly RuleFile[]) => {
    let entry = seen.get(state);
    if (!entry) {
      entry = { paths: new Set(), used: alwaysChars(rules) };
      for (const m of state.messages) {
        for (const block of m.content.matchAll(/<rules path="([^"]+)"[^>]*>([\s\S]*?)<\/rules>/g)) {
          entry.paths.add(block[1]!);
          entry.used += block[2]!.length;
        }
      }
      seen.set(state, entry);
    }
    return entry;
  };

  /** The rules that start to apply to `paths`, as a block for the model (undefined: none new). */
  const newRulesFor = async (paths: readonly string[], ctx: RunContext): Promise<string | undefined> => {
    const rules = (await catalog()).rules;
    const entry = ledger(ctx.state, rules);
    const fresh: RuleFile[] = [];
    for (const p of paths)
      for (const rule of applying(rules, p))
        if (!entry.paths.has(rule.file.label) && !fresh.includes(rule)) fresh.push(rule);
    if (fresh.length === 0) return undefined;
    const blocks: string[] = [];
    for (const rule of fresh) {
      entry.paths.add(rule.file.label);
      const room = RULES_BUDGET_CHARS - entry.used;
      let text = rule.text;
      if (text.length > room) {
        text = `${text.slice(0, Math.max(0, room))}\n[... cut: the rules budget (${RULES_BUDGET_CHARS.toLocaleString("en-US")} characters for all rules of a task) is spent; read ${rule.file.label} with read_file if you need the rest ...]`;
        ctx.emit({
          type: "warning",
          code: "rules",
          message: `${rule.file.label} was cut: all rules of a task share ${RULES_BUDGET_CHARS.toLocaleString("en-US")} characters.`,
        });
      }
      entry.used += text.length;
      blocks.push(
        `<rules path="${rule.file.label}" applies="${describeScope(rule.scope).replace(/"/g, "'")}">\n${text}\n</rules>`,
      );
    }
    ctx.emit({ type: "rules_loaded", files: fresh.map((r) => r.file.label) });
    return `\n\nRules from the repository that apply to this file (nearer folders first; nearer rules take precedence):\n${blocks.join("\n")}`;
  };

  return {
    name: "rules",
    async systemPrompt(ctx) {
      found = undefined;
      const { rules, problems } = await catalog();
      for (const p of problems)
        if (p.kind === "rules") ctx.emit({ type: "warning", code: "rules", message: problemText(p) });
      const sections: string[] = [];
      let room = RULES_BUDGET_CHARS;
      const loaded: string[] = [];
      for (const rule of rules) {
        if (rule.scope.kind !== "always") continue;
        let text = rule.text;
        if (text.length > room) {
          text = `${text.slice(0, Math.max(0, room))}\n[... cut: the rules budget (${RULES_BUDGET_CHARS.toLocaleString("en-US")} characters for all rules) is spent; the rest of ${rule.file.label} is not shown ...]`;
          ctx.emit({
            type: "warning",
            code: "rules",
            message: `${rule.file.label} was cut: all rules share ${RULES_BUDGET_CHARS.toLocaleString("en-US")} characters.`,
          });
        }
        room -= text.length;
        loaded.push(rule.file.label);
        sections.push(
          `# ${rule.file.origin === "user" ? "Your rules" : "Project rules"} (from ${rule.file.label})\n${text}`,
        );
      }
      const offered = rules.filter((r) => r.scope.kind === "requested" && r.file.path);
      if (offered.length) {
        sections.push(
          `# More project rules\nRead one with read_file when its description fits the task:\n${offered.map((r) => `- ${r.file.path}: ${r.scope.kind === "requested" ? r.scope.description : ""}`).join("\n")}`,
        );
      }
      if (loaded.length) ctx.emit({ type: "rules_loaded", files: loaded });
      return sections.length ? sections.join("\n\n") : undefined;
    },
    async beforeModel(ctx) {
      const last = ctx.state.messages.at(-1);
      if (last?.role !== "user") return;
      const paths = [
        ...(last.attachments ?? []).flatMap((a) => (a.kind === "file" ? [a.path] : [])),
        ...[...last.content.matchAll(MENTION)].map((m) => m[1]!.replace(/[.,;:!?)]+$/, "")),
      ];
      if (paths.length === 0 || (await catalog()).rules.every((r) => r.scope.kind === "always")) return;
      const block = await newRulesFor(
        paths.flatMap((p) => normal(p) ?? []),
        ctx,
      );
      if (block) ctx.state.messages[ctx.state.messages.length - 1] = { ...last, content: `${last.content}${block}` };
    },
    async wrapToolCall(call, ctx, next) {
      const result = await next(call);
      const path = TOUCHING.has(call.name) && !result.isError ? normal(call.args.file_path) : undefined;
      if (!path) return result;
      const block = await newRulesFor([path], ctx);
      return block ? { ...result, content: `${result.content}${block}` } : result;
    },
  };
}

function normal(p: unknown): string | undefined {
  const v = normalizeVirtualPath(p);
  return typeof v === "string" ? v : undefined;
}

function alwaysChars(rules: readonly RuleFile[]): number {
  return Math.min(
    RULES_BUDGET_CHARS,
    rules.reduce((n, r) => n + (r.scope.kind === "always" ? r.text.length : 0), 0),
  );
}

const matchers = new Map<string, Minimatch>();

/** The rules that apply to a file at `path` besides the always ones: its folders' (nearest first), then those whose globs match. */
export function applying(rules: readonly RuleFile[], path: string): RuleFile[] {
  const folders = rules
    .filter(
      (r): r is RuleFile & { scope: { kind: "folder" } } =>
        r.scope.kind === "folder" && (r.scope.folder === "/" || path.startsWith(`${r.scope.folder}/`)),
    )
    .sort((a, b) => b.scope.folder.length - a.scope.folder.length);
  const globbed = rules.filter((r) => {
    if (r.scope.kind !== "globs") return false;
    const root = r.scope.root === "/" ? "" : r.scope.root;
    if (root && !path.startsWith(`${root}/`)) return false;
    const rel = path.slice(root.length + 1);
    return r.scope.globs.some((g) => {
      const pattern = g.replace(/^\.?\//, "");
      let m = matchers.get(pattern);
      if (!m) matchers.set(pattern, (m = new Minimatch(pattern, { dot: true, matchBase: !pattern.includes("/") })));
      return m.match(rel);
    });
  });
  return [...folders, ...globbed];
}

/** A problem with a rules file, as the warning the person reads. */
function problemText(p: TeamFileProblem): string {
  const reason = p.message.replace(/^(not read|skipped): /, "");
  return p.note ? `${p.file} ${p.message}.` : `${p.file} was not loaded: ${reason}${p.line ? ` (line ${p.line})` : ""}`;
}
