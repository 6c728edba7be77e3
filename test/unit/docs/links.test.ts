import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { anchorsOf, brokenLinks, diskIo, linksOf, slug } from "../../support/markdownLinks";

// Every relative link and `#anchor` in the pages a newcomer reads must lead somewhere: the file
// exists, and the anchor is the slug GitHub makes of a heading of the page it points into.
const root = path.resolve(import.meta.dirname, "../../..");
const pages = [
  "README.md",
  "ARCHITECTURE.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

describe("documentation links", () => {
  it("every relative link and anchor in README.md, ARCHITECTURE.md and docs/*.md resolves", () => {
    const broken = pages.flatMap((page) =>
      brokenLinks(page, readFileSync(path.join(root, page), "utf8"), diskIo(root)),
    );
    assert.deepEqual(broken, [], `Broken links:\n  ${broken.join("\n  ")}`);
  });

  it("the pages link to each other (the check is not vacuous)", () => {
    const count = pages.reduce((n, page) => n + linksOf(readFileSync(path.join(root, page), "utf8")).length, 0);
    assert.ok(count > 20, `only ${count} links found`);
  });

  it("makes GitHub's slugs", () => {
    assert.equal(
      slug("Plan first, ask when unsure, steer while it runs, read the web"),
      "plan-first-ask-when-unsure-steer-while-it-runs-read-the-web",
    );
    assert.equal(slug("The `fathom` command"), "the-fathom-command");
    assert.equal(slug("Evals: measure how well Fathom solves tasks"), "evals-measure-how-well-fathom-solves-tasks");
    assert.equal(
      slug("Starter suite, replayed (no model) — harness self-check"),
      "starter-suite-replayed-no-model--harness-self-check",
    );
    assert.equal(slug("snake_case and [a link](x.md)"), "snake_case-and-a-link");
    assert.deepEqual(
      [...anchorsOf("# Notes\n\n## Notes\n\nTitle\n=====\n\n```\n# not a heading\n```\n")],
      ["notes", "notes-1", "title"],
    );
  });

  it("fails on a missing file, a missing anchor and a missing anchor in another page, and ignores code and URLs", () => {
    const files: Record<string, string> = {
      "docs/guide.md": "# Guide\n\n## Install it\n",
      "docs/page.md": "",
      "README.md": "",
    };
    const io = {
      read: (f: string) => files[f] ?? "",
      exists: (f: string) => f in files || f === "docs",
      isFile: (f: string) => f in files,
    };
    const page = [
      "# Page",
      "",
      "[fine](guide.md) and [fine too](guide.md#install-it) and [here](#page) and [up](../README.md)",
      "[gone](missing.md) and [no anchor](guide.md#install) and [no local anchor](#nowhere)",
      "![a picture that is not there](screenshots/none.png)",
      "`[in code](nope.md)` and [web](https://example.com/x.md#y) and [mail](mailto:a@b.c)",
      "```",
      "[in a fence](nope.md)",
      "```",
      "[ref]: ./gone-too.md",
      "[from the root](/docs/guide.md#install-it) and [not at the root](/guide.md)",
    ].join("\n");
    assert.deepEqual(
      brokenLinks("docs/page.md", page, io).map((b) => b.replace(/ \(.*$/, "")),
      [
        "docs/page.md:4: missing.md",
        "docs/page.md:4: guide.md#install",
        "docs/page.md:4: #nowhere",
        "docs/page.md:5: screenshots/none.png",
        "docs/page.md:10: ./gone-too.md",
        "docs/page.md:11: /guide.md",
      ],
    );
  });
});
