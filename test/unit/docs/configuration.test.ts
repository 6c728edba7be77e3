import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { USER_ONLY_SETTINGS } from "../../../src/host/settings";

// docs/configuration.md's table is the settings' reference: every `fathom.*` setting of
// package.json is in it, it names none that does not exist, and every setting the host reads from
// the user's settings only carries the table's ¹.
const root = path.resolve(import.meta.dirname, "../../..");
const page = readFileSync(path.join(root, "docs/configuration.md"), "utf8");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  contributes: { configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[] };
};
const settings = [pkg.contributes.configuration].flat().flatMap((c) => Object.keys(c.properties));

/** The settings a table row names, with whether it is marked user-only (`fathom.a` ¹ / `.b`). */
function rows(markdown: string): Map<string, boolean> {
  const named = new Map<string, boolean>();
  for (const m of markdown.matchAll(/^\| (`fathom\.[^|]*?) \|/gm)) {
    const cell = m[1]!;
    const first = /`(fathom\.[\w.]+)`/.exec(cell)![1]!;
    const userOnly = /`fathom\.[\w.]+` ¹/.test(cell);
    named.set(first, userOnly);
    // `fathom.commands.allow` ¹ / `.deny`: the second name shares the first one's prefix, not its mark.
    for (const tail of cell.matchAll(/\/ `\.([\w.]+)`( ¹)?/g))
      named.set(`${first.slice(0, first.lastIndexOf("."))}.${tail[1]}`, Boolean(tail[2]));
  }
  return named;
}

describe("docs/configuration.md", () => {
  const table = rows(page);

  it("lists every setting package.json contributes, and no other", () => {
    assert.deepEqual([...table.keys()].sort(), [...settings].sort());
  });

  it("marks every user-only setting the host reads with ¹", () => {
    const unmarked = USER_ONLY_SETTINGS.map((s) => `fathom.${s}`).filter((s) => table.get(s) !== true);
    assert.deepEqual(unmarked, []);
  });

  it("reads the table's marks (the check is not vacuous)", () => {
    assert.deepEqual(
      [...rows("| `fathom.a.b` ¹ / `.c` | x |\n| `fathom.d` | y |\n").entries()],
      [
        ["fathom.a.b", true],
        ["fathom.a.c", false],
        ["fathom.d", false],
      ],
    );
  });
});
