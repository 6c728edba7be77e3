/**
 * Whole files written as fenced code blocks, the way small code models answer ("here is the new
 * leap.py:" and the file in a fence) instead of calling a write tool. Finds the blocks and the file
 * each is for: a path the model wrote (in the fence's info string, on the line before it, or as
 * the block's first-line comment), else the one file the conversation has shown whose top-level
 * names (functions, classes) the block shares most. A block that names no file and resembles none
 * is left as text: an example, not a change.
 */

export interface CodeBlock {
  /** The fence's info string ("python", "python leap.py"). */
  info: string;
  /** The block's lines, ending with a newline. */
  body: string;
  /** Where the block (its fence lines included) starts and ends in the text. */
  start: number;
  end: number;
}

/** A file the model has seen in this task: its workspace path ("/leap.py") and content. */
export interface SeenFile {
  path: string;
  content: string;
}

const FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*([^\n`]*)\n([\s\S]*?)\n?^[ \t]*\1[ \t]*$/gm;
/** Blocks in these languages are commands or output, never a file's content. */
const NOT_FILES = /^(sh|bash|shell|console|zsh|powershell|ps1|cmd|text|output|log|diff|patch|json5?)$/i;
const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  python: [".py"],
  py: [".py"],
  javascript: [".js", ".mjs", ".cjs", ".jsx"],
  js: [".js", ".mjs", ".cjs", ".jsx"],
  typescript: [".ts", ".tsx", ".mts", ".cts"],
  ts: [".ts", ".tsx", ".mts", ".cts"],
  go: [".go"],
  rust: [".rs"],
  java: [".java"],
  ruby: [".rb"],
  c: [".c", ".h"],
  cpp: [".cpp", ".cc", ".hpp", ".h"],
};
/** A workspace path as a model writes it: "leap.py", "/src/app.ts", "./lib/x.rb", "src\\a.c". */
const PATH = /^\.?\/?(?:[\w.-]+[/\\])*[\w.-]+\.[A-Za-z0-9]{1,8}$/;
const DEFINITION =
  /^[ \t]*(?:export\s+)?(?:default\s+)?(?:pub\s+)?(?:async\s+)?(?:def|class|function|fn|func|interface|struct|enum|trait)\s+([A-Za-z_$][\w$]*)/gm;

export function fencedBlocks(text: string): CodeBlock[] {
  return [...text.matchAll(FENCE)].map((m) => ({
    info: m[2]!.trim(),
    body: `${m[3]!}\n`,
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** The workspace path `block` is the whole new content of, or undefined when it names none and resembles no seen file. */
export function blockTarget(text: string, block: CodeBlock, seen: readonly SeenFile[]): string | undefined {
  const language = block.info.split(/[\s:{]/)[0]!.toLowerCase();
  if (NOT_FILES.test(language)) return undefined;
  const named = namedPath(text, block, new Set(seen.map((f) => f.path)));
  if (named) return named;
  const extensions = EXTENSIONS[language];
  const candidates = seen.filter((f) => !extensions || extensions.some((e) => f.path.toLowerCase().endsWith(e)));
  return resembled(block.body, candidates);
}

/** A path written in the info string, on the line just before the fence, or in the block's first-line comment. */
function namedPath(text: string, block: CodeBlock, seen: ReadonlySet<string>): string | undefined {
  const fromInfo = block.info
    .split(/[\s:]+/)
    .map((t) => t.replace(/^(title|file|filename)=/i, "").replace(/^["']|["']$/g, ""))
    .find((t) => PATH.test(t) && !/^[\w-]+$/.test(t));
  if (fromInfo) return virtual(fromInfo);
  const before = text.slice(0, block.start).replace(/\s+$/, "").split("\n").at(-1) ?? "";
  // A short line that is mostly the path ("leap.py", "**`src/a.ts`**:", "File: leap.py"), or a
  // sentence ending with a file already seen ("Here is the new `leap.py`:").
  if (before.length <= 160) {
    const tokens = before
      .replace(/[*`#>]/g, " ")
      .split(/\s+/)
      .map((t) => t.replace(/[:,;!?)]+$/, "").replace(/^\(/, ""))
      .filter(Boolean);
    const last = tokens.at(-1);
    if (last && PATH.test(last) && (tokens.length <= 4 || seen.has(virtual(last)))) return virtual(last);
  }
  const first = block.body.split("\n")[0]!;
  const comment = /^\s*(?:#|\/\/|--|\/\*)\s*(?:file(?:name)?:\s*)?(\S+?)\s*(?:\*\/)?\s*$/i.exec(first);
  if (comment && PATH.test(comment[1]!)) return virtual(comment[1]!);
  return undefined;
}

/** The one seen file whose top-level names the block shares most (at least one, and more than any other). */
function resembled(body: string, candidates: readonly SeenFile[]): string | undefined {
  const names = definitions(body);
  if (names.size === 0) return undefined;
  const scored = candidates
    .map((f) => ({ path: f.path, score: [...definitions(f.content)].filter((n) => names.has(n)).length }))
    .sort((a, b) => b.score - a.score);
  const [best, second] = scored;
  if (!best || best.score === 0 || (second && second.score === best.score)) return undefined;
  return best.path;
}

function definitions(code: string): Set<string> {
  return new Set([...code.matchAll(DEFINITION)].map((m) => m[1]!));
}

function virtual(path: string): string {
  const clean = path.replace(/\\/g, "/").replace(/^\.\//, "");
  return clean.startsWith("/") ? clean : `/${clean}`;
}
