import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";

// ARCHITECTURE.md's map must match src/: every `src/…` path it names (in backticks) exists, and
// every folder directly under the rooms below is named there (as `src/core/x` or `src/core/x/`).
const root = path.resolve(import.meta.dirname, "../../..");
const ROOMS = ["src/core", "src/host", "src/cli", "src/action", "src/protocol"];

/** The `src/…` paths a page names in inline code, without a trailing slash. */
function namedSrcPaths(markdown: string): Set<string> {
  const named = new Set<string>();
  for (const m of markdown.matchAll(/`([^`\n]+)`/g)) {
    const text = m[1]!.trim();
    if (/^src\/[\w./-]*$/.test(text) && !text.includes("..")) named.add(text.replace(/\/+$/, ""));
  }
  return named;
}

/** What is wrong with a page's map of the tree: named paths that do not exist, and rooms' folders never named. */
function treeProblems(
  markdown: string,
  tree: { exists: (p: string) => boolean; folders: (room: string) => string[] },
  rooms = ROOMS,
): { missing: string[]; unnamed: string[] } {
  const named = namedSrcPaths(markdown);
  const missing = [...named].filter((p) => !tree.exists(p)).sort();
  const unnamed = rooms
    .flatMap((room) => tree.folders(room).map((f) => `${room}/${f}`))
    .filter((f) => !named.has(f))
    .sort();
  return { missing, unnamed };
}

const disk = {
  exists: (p: string) => existsSync(path.join(root, p)),
  folders: (room: string) =>
    existsSync(path.join(root, room))
      ? readdirSync(path.join(root, room), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => d.name)
      : [],
};

describe("ARCHITECTURE.md's tree", () => {
  const page = readFileSync(path.join(root, "ARCHITECTURE.md"), "utf8");
  const { missing, unnamed } = treeProblems(page, disk);

  it("names only src/ paths that exist", () => {
    assert.deepEqual(missing, [], `ARCHITECTURE.md names paths that do not exist:\n  ${missing.join("\n  ")}`);
  });

  it("names every folder directly under src/core, src/host, src/cli, src/action and src/protocol", () => {
    assert.deepEqual(
      unnamed,
      [],
      `Folders ARCHITECTURE.md never names (add them to "The tree"):\n  ${unnamed.join("\n  ")}`,
    );
  });

  it("names the rooms' folders in full (the check is not vacuous)", () => {
    assert.ok(namedSrcPaths(page).size > 30);
    assert.ok(disk.folders("src/core").length > 5);
  });

  it("fails on a named folder that is gone and on a folder the page never names", () => {
    const tree = {
      exists: (p: string) => ["src/core", "src/core/agent", "src/core/tools", "src/core/tools/tool.ts"].includes(p),
      folders: (room: string) => (room === "src/core" ? ["agent", "tools", "trust"] : []),
    };
    const page =
      "The agent is `src/core/agent/`; tools in `src/core/tools` (`src/core/tools/tool.ts`); `src/core/oldName/` went; `trust/` is named only relatively; `npm test` is no path.";
    assert.deepEqual(treeProblems(page, tree), { missing: ["src/core/oldName"], unnamed: ["src/core/trust"] });
  });
});
