// Whole files written as fenced blocks: which file each block is for (issue 39).
import assert from "node:assert/strict";
import { test } from "node:test";
import { blockTarget, fencedBlocks, type SeenFile } from "../../../src/core/tools/codeBlocks";

const seen: SeenFile[] = [
  { path: "/.docs/instructions.md", content: "# Instructions\n\nDetermine whether a year is a leap year.\n" },
  { path: "/leap.py", content: "def leap_year(year):\n    pass\n" },
  {
    path: "/leap_test.py",
    content:
      "import unittest\nfrom leap import leap_year\n\nclass LeapTest(unittest.TestCase):\n    def test_2015(self):\n        self.assertIs(leap_year(2015), False)\n",
  },
];
const solution = "def leap_year(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n";

function targets(text: string): (string | undefined)[] {
  return fencedBlocks(text).map((b) => blockTarget(text, b, seen));
}

test("fenced blocks: info string, body with its newline, and where each is", () => {
  const text = `Intro\n\n\`\`\`python\n${solution}\`\`\`\n\nthen\n~~~sh\npython -m pytest -q\n~~~\n`;
  const blocks = fencedBlocks(text);
  assert.equal(blocks.length, 2);
  assert.equal(blocks[0]!.info, "python");
  assert.equal(blocks[0]!.body, solution);
  assert.equal(text.slice(blocks[0]!.start, blocks[0]!.end), `\`\`\`python\n${solution}\`\`\``);
  assert.equal(blocks[1]!.body, "python -m pytest -q\n");
});

test("a path the model wrote wins: on the line before, in the info string, or as the first-line comment", () => {
  assert.deepEqual(targets(`leap.py\n\`\`\`python\n${solution}\`\`\``), ["/leap.py"]);
  assert.deepEqual(targets(`**\`src/new_module.py\`**:\n\`\`\`python\n${solution}\`\`\``), ["/src/new_module.py"]);
  assert.deepEqual(targets(`Here is the new \`leap.py\`:\n\n\`\`\`python\n${solution}\`\`\``), ["/leap.py"]);
  assert.deepEqual(targets(`\`\`\`python title="lib/leap.py"\n${solution}\`\`\``), ["/lib/leap.py"]);
  assert.deepEqual(targets(`\`\`\`python\n# leap.py\n${solution}\`\`\``), ["/leap.py"]);
  assert.deepEqual(targets(`\`\`\`ts\n// src/app.ts\nexport const a = 1;\n\`\`\``), ["/src/app.ts"]);
});

test("a long sentence ending with a file never seen does not name it; a short line does", () => {
  const long = "After reading everything above carefully, the following would be one way to write other.py:";
  assert.deepEqual(targets(`${long}\n\`\`\`python\nx = 1\n\`\`\``), [undefined]);
  assert.deepEqual(targets(`other.py:\n\`\`\`python\nx = 1\n\`\`\``), ["/other.py"]);
});

test("no path: the one seen file of the block's language that shares the most top-level names", () => {
  assert.deepEqual(targets(`Here is the implementation:\n\n\`\`\`python\n${solution}\`\`\``), ["/leap.py"]);
  // A test class resembles the test file, not the stub.
  const tests = "class LeapTest(unittest.TestCase):\n    def test_2015(self):\n        pass\n";
  assert.deepEqual(targets(`\`\`\`python\n${tests}\`\`\``), ["/leap_test.py"]);
});

test("left as text: commands, output, code that names nothing and resembles no file, a tie", () => {
  assert.deepEqual(targets("```sh\npython -m pytest -q\n```"), [undefined]);
  assert.deepEqual(targets("```\n===== 9 passed in 0.01s =====\n```"), [undefined]);
  assert.deepEqual(targets("```python\nprint(leap_year(2000))\n```"), [undefined]);
  const both: SeenFile[] = [
    { path: "/a.py", content: "def f():\n    pass\n" },
    { path: "/b.py", content: "def f():\n    return 1\n" },
  ];
  const text = "```python\ndef f():\n    return 2\n```";
  assert.equal(blockTarget(text, fencedBlocks(text)[0]!, both), undefined);
  // A block in another language never goes to a .py file.
  const js = "```javascript\nfunction leap_year(y) { return false; }\n```";
  assert.equal(blockTarget(js, fencedBlocks(js)[0]!, seen), undefined);
});
