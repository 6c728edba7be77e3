import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import * as nodePath from "node:path";
import { isInside } from "../../backends/pathGuard";

/**
 * Which language servers a headless run (the CLI, the ACP agent, the Action) may start for its
 * workspace, chosen by what the workspace holds, and found where they are installed.
 *
 * The rule for the workspace's own programs: a language server reads the whole repository and
 * may run parts of it (the workspace's TypeScript and the tsserver plugins its tsconfig names),
 * so it starts inside the OS sandbox, like any command. There a server in the workspace's
 * `node_modules/.bin` (the version the project pins) is preferred to one on PATH, and it may use
 * the workspace's TypeScript. Without the sandbox (`--no-sandbox`, or where it cannot run) no
 * program of the workspace starts: not a server under the workspace (in its `node_modules/.bin`,
 * or on a PATH entry inside it), not its TypeScript (typescript-language-server is given the
 * TypeScript installed beside it instead; none there, no TypeScript server). This is the rule
 * hooks and MCP servers from workspace files follow: a stranger's program runs in the sandbox
 * or with the person's consent, and a language server has no card to ask that consent on.
 */

export type ServerLanguage = "typescript" | "python";

export interface LanguageServerSpec {
  language: ServerLanguage;
  /** The program's name, as the tools and the log say it (`typescript-language-server`). */
  name: string;
  /** Absolute path of the program. */
  command: string;
  args: string[];
  /** Found under the workspace (its node_modules/.bin, or a PATH entry inside it). */
  fromWorkspace: boolean;
  /** Files it answers for, by extension (with the dot). */
  extensions: readonly string[];
  /** LSP's languageId per extension. */
  languageIds: Readonly<Record<string, string>>;
  initializationOptions?: Record<string, unknown>;
  /** A log message the server sends once it knows the workspace's files; its answers wait for it. */
  readyMessage?: RegExp;
}

export interface LanguageServerChoice {
  servers: LanguageServerSpec[];
  /** Why a language the workspace holds has no server (what to install), one line each. */
  missing: string[];
}

const TS_IDS = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascriptreact",
} as const;
const PY_IDS = { ".py": "python", ".pyi": "python" } as const;

interface LanguageKind {
  language: ServerLanguage;
  label: string;
  markers: readonly string[];
  ids: Readonly<Record<string, string>>;
  /** Servers in order of preference: program name and arguments. */
  programs: readonly { name: string; args: string[]; readyMessage?: RegExp }[];
  install: string;
}

const LANGUAGES: readonly LanguageKind[] = [
  {
    language: "typescript",
    label: "TypeScript/JavaScript",
    markers: ["tsconfig.json", "jsconfig.json", "package.json"],
    ids: TS_IDS,
    programs: [{ name: "typescript-language-server", args: ["--stdio"] }],
    install: "npm install -g typescript-language-server typescript",
  },
  {
    language: "python",
    label: "Python",
    markers: ["pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "pyrightconfig.json"],
    ids: PY_IDS,
    programs: [
      // Pyright answers at once, from the files it has found so far; "Found 3 source files" ends the search.
      { name: "pyright-langserver", args: ["--stdio"], readyMessage: /^Found \d+ source files?/ },
      { name: "pylsp", args: [] },
    ],
    install: "npm install -g pyright (or pip install python-lsp-server)",
  },
];

/** Folders never looked into for source files. */
const SKIPPED = new Set(["node_modules", "dist", "build", "out", "target", "venv", "__pycache__"]);

/** The extensions of files in the root and the folders right under it (a bounded look). */
function extensionsHeld(root: string): Set<string> {
  const found = new Set<string>();
  let looked = 0;
  const look = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (++looked > 2_000) return;
      if (e.name.startsWith(".")) continue;
      if (e.isFile()) found.add(nodePath.extname(e.name));
      else if (e.isDirectory() && depth < 2 && !SKIPPED.has(e.name)) look(nodePath.join(dir, e.name), depth + 1);
    }
  };
  look(root, 0);
  return found;
}

function executable(file: string): boolean {
  try {
    return statSync(file).isFile() && (process.platform === "win32" || (statSync(file).mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

function real(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** Where a program is: the workspace's node_modules/.bin first, then PATH; each marked inside the workspace or not. */
function findProgram(name: string, root: string, pathVar: string): { file: string; fromWorkspace: boolean }[] {
  const realRoot = real(root);
  const inWorkspace = (file: string) => isInside(realRoot, real(file)) || isInside(root, file);
  const dirs = [nodePath.join(root, "node_modules", ".bin"), ...pathVar.split(nodePath.delimiter).filter(Boolean)];
  const out: { file: string; fromWorkspace: boolean }[] = [];
  for (const dir of dirs) {
    const file = nodePath.join(dir, name);
    if (executable(file) && !out.some((o) => real(o.file) === real(file)))
      out.push({ file, fromWorkspace: inWorkspace(file) });
  }
  return out;
}

/** The tsserver.js of a TypeScript installed beside a program (outside the workspace), if any. */
function typescriptBeside(program: string, root: string): string | undefined {
  const realRoot = real(root);
  let dir = nodePath.dirname(real(program));
  for (;;) {
    const tsserver = nodePath.join(dir, "node_modules", "typescript", "lib", "tsserver.js");
    if (existsSync(tsserver) && !isInside(realRoot, real(tsserver))) return real(tsserver);
    const parent = nodePath.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The servers to start for `root`, one per language it holds (none is started here). `sandboxed`:
 * whether they will run inside the OS sandbox (see the rule above).
 */
export function chooseLanguageServers(root: string, o: { sandboxed: boolean; pathVar?: string }): LanguageServerChoice {
  const pathVar = o.pathVar ?? process.env.PATH ?? "";
  let held: Set<string> | undefined;
  const holds = () => (held ??= extensionsHeld(root));
  const servers: LanguageServerSpec[] = [];
  const missing: string[] = [];
  for (const kind of LANGUAGES) {
    const hasMarker = kind.markers.some((m) => existsSync(nodePath.join(root, m)));
    if (!hasMarker && !Object.keys(kind.ids).some((ext) => holds().has(ext))) continue;
    let chosen: LanguageServerSpec | undefined;
    const refused: string[] = [];
    for (const program of kind.programs) {
      for (const found of findProgram(program.name, root, pathVar)) {
        if (found.fromWorkspace && !o.sandboxed) {
          refused.push(found.file);
          continue;
        }
        let initializationOptions: Record<string, unknown> | undefined;
        if (kind.language === "typescript") {
          const tsserver = o.sandboxed ? undefined : typescriptBeside(found.file, root);
          if (!o.sandboxed && !tsserver) {
            refused.push(`${found.file} (no TypeScript installed beside it)`);
            continue;
          }
          initializationOptions = {
            // No syntax-only server: while the project loads it would answer from one file alone
            // (references in that file only), where waiting gives the whole project's answer.
            tsserver: { useSyntaxServer: "never", ...(tsserver ? { path: tsserver } : {}) },
            // No typings fetched with npm from the network into a cache: the server reads, never installs.
            disableAutomaticTypingAcquisition: true,
          };
        }
        chosen = {
          language: kind.language,
          name: program.name,
          command: found.file,
          args: program.args,
          fromWorkspace: found.fromWorkspace,
          extensions: Object.keys(kind.ids),
          languageIds: kind.ids,
          ...(initializationOptions ? { initializationOptions } : {}),
          ...(program.readyMessage ? { readyMessage: program.readyMessage } : {}),
        };
        break;
      }
      if (chosen) break;
    }
    if (chosen) servers.push(chosen);
    else
      missing.push(
        refused.length
          ? `No ${kind.label} language server may start: ${refused.join(", ")} ${refused.length === 1 ? "is" : "are"} the workspace's own program or would run its TypeScript, which runs only in the OS sandbox. Install one outside the workspace (${kind.install}) or run with the sandbox.`
          : `No ${kind.label} language server is installed (looked in the workspace's node_modules/.bin and on PATH): ${kind.install}.`,
      );
  }
  return { servers, missing };
}
