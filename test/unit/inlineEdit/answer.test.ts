// An inline edit's answer made into the selection's replacement: fences, a leading sentence, a
// whole-file or whole-snippet answer, prose, line endings, blank lines and indentation; and what
// the diff shows while the answer streams in.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cleanAnswer, partialReplacement, type CleanedAnswer } from "../../../src/core/inlineEdit/answer";
import { replaceLines, selectLines, type SelectedLines } from "../../../src/core/inlineEdit/selectedLines";

const FILE =
  [
    "import { readFile } from 'node:fs/promises';",
    "",
    "export function load(path) {",
    "  const text = readFile(path, 'utf8');",
    "  return JSON.parse(text);",
    "}",
    "",
    "export const VERSION = 1;",
  ].join("\n") + "\n";
const NEW = "  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);\n";

function sel(text: string, start: number, end: number): SelectedLines {
  const s = selectLines(text, start, end);
  if ("error" in s) throw new Error(s.error);
  return s;
}
const clean = (answer: string, o: { text?: string; start?: number; end?: number; path?: string } = {}): CleanedAnswer =>
  cleanAnswer(answer, { sel: sel(o.text ?? FILE, o.start ?? 4, o.end ?? 5), path: o.path ?? "/src/load.js" });
const replacement = (result: CleanedAnswer): string => {
  if ("refused" in result) throw new Error(`refused: ${result.refused}`);
  return result.replacement;
};
const refusal = (result: CleanedAnswer): string => {
  if (!("refused" in result)) throw new Error(`not refused: ${JSON.stringify(result.replacement)}`);
  return result.refused;
};

describe("cleanAnswer", () => {
  it("takes a plain answer as it is, with the selection's final line break", () => {
    assert.equal(replacement(clean("  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);")), NEW);
    assert.equal(
      replacement(clean("  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);\n\n\n")),
      NEW,
      "trailing blank lines dropped",
    );
  });

  it("strips a fence, and the prose around it", () => {
    assert.equal(
      replacement(clean("```js\n  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);\n```")),
      NEW,
    );
    assert.equal(
      replacement(
        clean(
          "Here is the updated code:\n\n```javascript\n  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);\n```\n\nThis awaits the read.",
        ),
      ),
      NEW,
    );
    assert.equal(
      replacement(clean("~~~\n  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);\n~~~\n")),
      NEW,
    );
    assert.equal(
      replacement(
        clean("Sure! Here's the change:\n  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);"),
      ),
      NEW,
      "a leading sentence without a fence",
    );
  });

  it("narrows a whole-file answer to the selection", () => {
    const whole = FILE.replace("  const text = readFile", "  const text = await readFile");
    assert.equal(replacement(clean(whole)), NEW);
    assert.equal(replacement(clean("```js\n" + whole + "```\n")), NEW);
    // A few lines around it, as a model often adds.
    assert.equal(
      replacement(
        clean(
          "export function load(path) {\n  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);\n}",
        ),
      ),
      NEW,
    );
  });

  it("narrows an answer that repeats the context it was shown in a long file", () => {
    const lines = Array.from({ length: 120 }, (_, i) => `const v${i + 1} = ${i + 1};`);
    const text = lines.join("\n") + "\n";
    // Lines 60-61 selected: the model was shown 30 lines each side and answers with all of it.
    const answer = [...lines.slice(29, 59), "const v60 = 600;", "const v61 = 610;", ...lines.slice(61, 91)].join("\n");
    assert.equal(
      replacement(clean(answer, { text, start: 60, end: 61, path: "/v.js" })),
      "const v60 = 600;\nconst v61 = 610;\n",
    );
  });

  it("refuses an answer that also changes lines around the selection", () => {
    const whole = FILE.replace("export function load", "export async function load").replace(
      "  const text = readFile",
      "  const text = await readFile",
    );
    assert.match(refusal(clean(whole)), /changes lines around the selection too/);
  });

  it("keeps a first line that repeats the line above when the selection starts with it too", () => {
    const text = "a();\na();\nb();\n";
    assert.equal(replacement(clean("a();\nc();", { text, start: 2, end: 3, path: "/x.js" })), "a();\nc();\n");
  });

  it("refuses prose, an apology, a 'Cannot:' and several code blocks, with what the model said", () => {
    assert.match(
      refusal(clean("This function reads the file and parses it as JSON, so it already works.")),
      /explanation instead of the new text: “This function reads/,
    );
    assert.match(refusal(clean("I'm sorry, but I can't help with that.")), /explanation instead of the new text/);
    assert.equal(
      refusal(clean("Cannot: there is no loop in the selected lines.")),
      "The model says it cannot do this: there is no loop in the selected lines.",
    );
    assert.match(refusal(clean("```js\nconst a = 1;\n```\nor\n```js\nconst a = 2;\n```")), /2 code blocks/);
    assert.match(
      refusal(clean("Here is the updated code:")),
      /explanation instead of the new text/,
      "a lead-in and nothing after it",
    );
  });

  it("accepts prose in a Markdown or text file, and keeps a Markdown selection's own fences", () => {
    const md = "# Title\n\nSome old words here.\n\nEnd.\n";
    assert.equal(
      replacement(clean("Some better words, written again.", { text: md, start: 3, end: 3, path: "/README.md" })),
      "Some better words, written again.\n",
    );
    const withCode = "Intro.\n\n```js\nold();\n```\n\nOutro.\n";
    assert.equal(
      replacement(clean("```js\nnew();\n```", { text: withCode, start: 3, end: 5, path: "/doc.md" })),
      "```js\nnew();\n```\n",
    );
    assert.equal(
      replacement(
        clean("````markdown\n```js\nnew();\n```\n````", { text: withCode, start: 3, end: 5, path: "/doc.md" }),
      ),
      "```js\nnew();\n```\n",
      "a fence around the whole answer goes",
    );
  });

  it("writes the file's CRLF line endings whatever the model used", () => {
    const crlf = FILE.replace(/\n/g, "\r\n");
    assert.equal(
      replacement(clean("  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);", { text: crlf })),
      NEW.replace(/\n/g, "\r\n"),
    );
    assert.equal(
      replacement(
        clean("```js\r\n  const text = await readFile(path, 'utf8');\r\n  return JSON.parse(text);\r\n```\r\n", {
          text: crlf,
        }),
      ),
      NEW.replace(/\n/g, "\r\n"),
    );
  });

  it("a last line without a line break gets none; blank lines around the selection stay", () => {
    const text = "a\nb";
    assert.equal(replacement(clean("B\n", { text, start: 2, end: 2, path: "/t.js" })), "B");
    const spaced = "x();\n\ny();\n\nz();\n";
    // Lines 2-4 ("", "y();", ""): the model answers without the blank lines.
    assert.equal(replacement(clean("w();", { text: spaced, start: 2, end: 4, path: "/t.js" })), "\nw();\n\n");
  });

  it("gives back indentation the model dropped", () => {
    assert.equal(
      replacement(clean("const text = await readFile(path, 'utf8');\nreturn JSON.parse(text);")),
      NEW,
      "every line from column 0",
    );
    assert.equal(
      replacement(clean("const text = await readFile(path, 'utf8');\n  return JSON.parse(text);")),
      NEW,
      "only the first line trimmed",
    );
    assert.equal(
      replacement(clean("if (x) {\n  go();\n}", { text: "def():\n    old()\n", start: 2, end: 2, path: "/a.py" })),
      "    if (x) {\n      go();\n    }\n",
    );
  });

  it("an empty answer deletes the lines", () => {
    assert.equal(replacement(clean("")), "");
    assert.equal(
      replaceLines(FILE, 4, 5, ""),
      FILE.replace("  const text = readFile(path, 'utf8');\n  return JSON.parse(text);\n", ""),
    );
  });
});

describe("partialReplacement (what the diff shows while the answer streams)", () => {
  const ctx = { sel: sel(FILE, 4, 5), path: "/src/load.js" };
  it("shows lines as they come, holding back a fence and an unfinished first line", () => {
    assert.equal(partialReplacement("```", ctx), undefined);
    assert.equal(partialReplacement("```js\n", ctx), undefined);
    assert.equal(
      partialReplacement("  const text = aw", ctx),
      undefined,
      "an unfinished first line may turn out to be a sentence",
    );
    assert.equal(partialReplacement("Here is the upd", ctx), undefined);
    assert.equal(
      partialReplacement("```js\n  const text = aw", ctx),
      "  const text = aw\n",
      "inside a fence it is code",
    );
    assert.equal(
      partialReplacement("```js\n  const text = await readFile(path, 'utf8');\n  ret", ctx),
      "  const text = await readFile(path, 'utf8');\n  ret\n",
    );
    assert.equal(
      partialReplacement("```js\n  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);\n``", ctx),
      NEW,
      "a closing fence on its way is not shown",
    );
  });

  it("shows nothing while the model repeats the file before the selection, or writes prose", () => {
    assert.equal(
      partialReplacement("import { readFile } from 'node:fs/promises';\n\nexport function load(path) {\n", ctx),
      undefined,
    );
    assert.equal(
      partialReplacement(
        "import { readFile } from 'node:fs/promises';\n\nexport function load(path) {\n  const text = await readFile(path, 'utf8');\n",
        ctx,
      ),
      "  const text = await readFile(path, 'utf8');\n",
    );
    assert.equal(partialReplacement("This function reads the file and parses it.\n", ctx), undefined);
    assert.equal(partialReplacement("Cannot: no.\n", ctx), undefined);
  });
});

describe("selectLines", () => {
  it("counts lines as VS Code does: a final line break starts an empty last line; a BOM is not text", () => {
    const s = sel("\uFEFFa\r\nb\r\n", 1, 1);
    assert.deepEqual([s.before, s.selected, s.after, s.eol, s.endsWithEol], [[], ["a"], ["b", ""], "\r\n", true]);
    assert.equal(replaceLines("\uFEFFa\r\nb\r\n", 1, 1, "A\r\n"), "\uFEFFA\r\nb\r\n", "the BOM stays");
    const last = sel("a\nb\n", 3, 3);
    assert.deepEqual([last.selected, last.endsWithEol], [[""], false]);
    assert.equal(replaceLines("a\nb\n", 3, 3, "c"), "a\nb\nc");
    assert.match((selectLines("a\n", 2, 3) as { error: string }).error, /has 2 lines now/);
    assert.match((selectLines("a\n", 2, 1) as { error: string }).error, /not a range/);
  });
});
