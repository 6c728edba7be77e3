/**
 * A unified diff as git prints it (`git diff`, `git diff --cached`, or VS Code's git extension's
 * `repository.diff()`), read into one entry per file: its path, what happened to it, its +/-
 * line counts and its hunks. The commit-message budget works on these entries, not on text.
 */

export type FileStatus = "added" | "deleted" | "modified" | "renamed" | "copied" | "mode changed" | "unmerged";

export interface FileDiff {
  path: string;
  /** Where a renamed or copied file came from. */
  oldPath?: string;
  status: FileStatus;
  /** git printed no lines for it ("Binary files … differ", or a binary patch). */
  binary: boolean;
  added: number;
  removed: number;
  /** Each hunk's text from its `@@` line, lines joined with "\n". */
  hunks: string[];
  /** Said of the file instead of its content (an untracked file too large to read). */
  note?: string;
}

// Colour codes, in case the person's git config says color.ui=always.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * Prefix pairs git puts before the two sides' paths: the default, `diff.mnemonicPrefix`'s
 * (index, work tree, commit, object) and `--no-index`'s. `diff.noPrefix` puts none.
 */
const PREFIX_PAIRS: readonly (readonly [string, string])[] = [
  ["a/", "b/"],
  ["i/", "w/"],
  ["c/", "w/"],
  ["c/", "i/"],
  ["o/", "w/"],
  ["w/", "i/"],
  ["1/", "2/"],
];

/** Reads every file of a git diff. Text that is not a diff gives no entries. */
export function parseGitDiff(text: string): FileDiff[] {
  const files: FileDiff[] = [];
  let file: FileDiff | undefined;
  let prefixes: readonly [string, string] | undefined;
  let hunk: string[] | undefined;
  let inBinaryPatch = false;
  const endHunk = () => {
    if (file && hunk) file.hunks.push(hunk.join("\n"));
    hunk = undefined;
  };

  for (const raw of text.replace(ANSI, "").split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const header = /^diff --(git|cc|combined) (.*)$/.exec(line);
    if (header) {
      endHunk();
      inBinaryPatch = false;
      const sides = headerPaths(header[2]!, header[1] !== "git");
      prefixes = sides.prefixes;
      file = {
        path: sides.path,
        status: header[1] === "git" ? "modified" : "unmerged",
        binary: false,
        added: 0,
        removed: 0,
        hunks: [],
      };
      files.push(file);
      continue;
    }
    if (!file || inBinaryPatch) continue;
    if (hunk) {
      const mark = line[0];
      if (mark === "+" || mark === "-" || mark === " " || mark === "\\") {
        hunk.push(line);
        countLine(file, line);
        continue;
      }
      endHunk();
    }
    if (line.startsWith("@@")) {
      hunk = [line];
      continue;
    }
    if (line.startsWith("new file mode")) file.status = "added";
    else if (line.startsWith("deleted file mode")) file.status = "deleted";
    else if (line.startsWith("old mode") || line.startsWith("new mode")) {
      if (file.status === "modified") file.status = "mode changed";
    } else if (line.startsWith("rename from ") || line.startsWith("copy from ")) {
      file.oldPath = unquote(line.slice(line.indexOf(" from ") + 6));
      file.status = line.startsWith("rename") ? "renamed" : "copied";
    } else if (line.startsWith("rename to ") || line.startsWith("copy to ")) {
      file.path = unquote(line.slice(line.indexOf(" to ") + 4));
    } else if (line.startsWith("Binary files ") && line.endsWith(" differ")) file.binary = true;
    else if (line === "GIT binary patch") {
      file.binary = true;
      inBinaryPatch = true;
    } else if (line.startsWith("+++ ") && file.status !== "renamed" && file.status !== "copied") {
      const p = sidePath(line.slice(4), prefixes?.[1]);
      if (p !== undefined) file.path = p;
    } else if (line.startsWith("--- ") && file.status === "deleted") {
      const p = sidePath(line.slice(4), prefixes?.[0]);
      if (p !== undefined) file.path = p;
    }
  }
  endHunk();
  // An edited file that went back to what was committed shows a header and nothing else.
  return files.filter((f) => f.status !== "modified" || f.binary || f.hunks.length > 0);
}

/** A file git does not track yet, as a diff that adds all of it. `text` is undefined for a binary file. */
export function addedFileDiff(path: string, text: string | undefined, note?: string): FileDiff {
  if (text === undefined)
    return { path, status: "added", binary: true, added: 0, removed: 0, hunks: [], ...(note ? { note } : {}) };
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const body = lines.map((l) => `+${l.endsWith("\r") ? l.slice(0, -1) : l}`);
  if (text !== "" && !text.endsWith("\n")) body.push("\\ No newline at end of file");
  const hunks = lines.length > 0 ? [[`@@ -0,0 +1,${lines.length} @@`, ...body].join("\n")] : [];
  return { path, status: "added", binary: false, added: lines.length, removed: 0, hunks, ...(note ? { note } : {}) };
}

function countLine(file: FileDiff, line: string): void {
  if (file.status === "unmerged") {
    // A combined diff has one column per parent: a line added against either counts once.
    const cols = line.slice(0, 2);
    if (cols.includes("+")) file.added++;
    else if (cols.includes("-")) file.removed++;
    return;
  }
  if (line[0] === "+") file.added++;
  else if (line[0] === "-") file.removed++;
}

/** A `---`/`+++` line's path without its prefix; undefined for /dev/null. */
function sidePath(text: string, prefix: string | undefined): string | undefined {
  // git ends a name that has a space with a tab, so a reader can tell where it stops.
  const name = unquote(text.endsWith("\t") ? text.slice(0, -1) : text);
  if (name === "/dev/null") return undefined;
  return prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/**
 * The path a `diff --git` line names, and which prefixes this diff uses. Both sides name the
 * same file unless it was renamed (then `rename to` names it), so the line splits in the middle.
 */
function headerPaths(rest: string, combined: boolean): { path: string; prefixes?: readonly [string, string] } {
  if (combined) return { path: unquote(rest) };
  const sides = rest.startsWith('"') ? splitQuoted(rest) : undefined;
  const [left, right] = sides ?? splitSymmetric(rest);
  const pair = PREFIX_PAIRS.find(([a, b]) => left.startsWith(a) && right.startsWith(b));
  if (!pair) return { path: right };
  return { path: right.slice(pair[1].length), prefixes: pair };
}

function splitSymmetric(rest: string): [string, string] {
  // "X/name Y/name" or, without prefixes, "name name": the halves are as long as each other.
  const middle = (rest.length - 1) / 2;
  if (Number.isInteger(middle) && rest[middle] === " ") {
    const left = rest.slice(0, middle);
    const right = rest.slice(middle + 1);
    if (left.slice(2) === right.slice(2) || left === right) return [left, right];
  }
  const space = rest.indexOf(" b/");
  return space > 0 ? [rest.slice(0, space), rest.slice(space + 1)] : [rest, rest];
}

function splitQuoted(rest: string): [string, string] | undefined {
  const end = closingQuote(rest);
  if (end < 0) return undefined;
  const left = unquote(rest.slice(0, end + 1));
  const right = unquote(rest.slice(end + 2));
  return [left, right];
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/** A path as git quotes it when it has unusual characters (C escapes, UTF-8 bytes in octal). */
export function unquote(text: string): string {
  if (!(text.length >= 2 && text.startsWith('"') && text.endsWith('"'))) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\") {
      bytes.push(...Buffer.from(ch, "utf8"));
      continue;
    }
    const next = body[i + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}
