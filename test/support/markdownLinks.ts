// Relative links and anchors in the repository's Markdown, checked the way GitHub renders them:
// a link's file must exist (relative to the page), and a `#anchor` must be the slug GitHub
// makes of one of the target page's headings (or an explicit `<a id>` / `<a name>`).
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface MarkdownLink {
  line: number;
  target: string;
}

/** Markdown outside fenced code blocks and inline code spans, one entry per source line. */
function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split("\n").map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = undefined;
      return "";
    }
    if (marker) {
      fence = marker;
      return "";
    }
    return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => " ".repeat(span.length));
  });
}

/** Every link and image target of a page with its line (inline `[x](t)`, `![x](t)`, and `[x]: t` definitions). */
export function linksOf(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(markdown).forEach((text, i) => {
    for (const m of text.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) {
      links.push({ line: i + 1, target: m[1]!.replace(/^<|>$/g, "") });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(text);
    if (definition) links.push({ line: i + 1, target: definition[1]!.replace(/^<|>$/g, "") });
  });
  return links;
}

/** GitHub's heading slug (github-slugger): lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link or image in a heading keeps its text
    .replace(/<[^>]+>/g, "")
    .replace(/`/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
}

/** The anchors a page offers: its headings' slugs (repeats numbered -1, -2… as GitHub does) and explicit ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const lines = proseLines(markdown);
  const raw = markdown.split("\n");
  lines.forEach((text, i) => {
    const atx = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    // Setext headings: a line of text underlined with === or ---.
    const setext =
      !atx && text.trim() && /^\s{0,3}(=+|-+)\s*$/.test(lines[i + 1] ?? "") && !/^\s*([-*+]|\d+\.)\s/.test(text)
        ? text
        : undefined;
    const heading = atx
      ? raw[i]!.replace(/^\s{0,3}#{1,6}\s+/, "").replace(/\s+#+\s*$/, "")
      : setext
        ? raw[i]!
        : undefined;
    if (heading !== undefined) {
      const base = slug(heading);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of raw[i]!.matchAll(/<a\s[^>]*(?:id|name)\s*=\s*"([^"]+)"/g)) anchors.add(m[1]!);
  });
  return anchors;
}

/**
 * The broken relative links of one page, as `file:line: target (why)`. `read` and `exists`
 * default to the disk; a test gives its own to check a page that is only a string.
 */
export function brokenLinks(file: string, markdown: string, io: LinkIo = diskIo(process.cwd())): string[] {
  const broken: string[] = [];
  for (const { line, target } of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue; // https:, mailto:, …
    const hash = target.indexOf("#");
    const filePart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    // A leading "/" is the repository's root, as on GitHub.
    const resolved = !filePart
      ? file
      : filePart.startsWith("/")
        ? path.normalize(filePart.slice(1))
        : path.join(path.dirname(file), filePart);
    const where = `${file}:${line}: ${target}`;
    if (filePart && !io.exists(resolved)) {
      broken.push(`${where} (no such file: ${resolved})`);
      continue;
    }
    if (anchor === undefined || !/\.md$/i.test(resolved) || !io.isFile(resolved)) continue;
    if (!anchorsOf(filePart ? io.read(resolved) : markdown).has(anchor))
      broken.push(`${where} (no heading with the anchor #${anchor} in ${resolved})`);
  }
  return broken;
}

export interface LinkIo {
  read: (file: string) => string;
  exists: (file: string) => boolean;
  isFile: (file: string) => boolean;
}

/** The files of the repository at `root`, by paths relative to it. */
export function diskIo(root: string): LinkIo {
  const at = (file: string) => path.join(root, file);
  return {
    read: (file) => readFileSync(at(file), "utf8"),
    exists: (file) => existsSync(at(file)),
    isFile: (file) => existsSync(at(file)) && statSync(at(file)).isFile(),
  };
}
