// The JS Fathom's extension loads at activation stays within its budget (bench/budgets.json),
// and the libraries it loads on first use stay out of it. A failure names the modules that grew.
// FATHOM_RECORD_BUDGET=1 records today's module sizes (after a reviewed change of the budget).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { webPageLib } from "../../../src/core/vendor/libraries";
import { activationBundle, grown, readBudgets, writeBudgets } from "../../support/bundleBudget";

/** Packages that must load only when first used (src/core/vendor/libraries.ts). */
const LAZY_PACKAGES = [
  "openai",
  "@anthropic-ai/sdk",
  "@anthropic-ai/sandbox-runtime",
  "@modelcontextprotocol/sdk",
  "ajv",
  "unbash",
  "node-forge",
  "yaml",
  "linkedom",
  "@mozilla/readability",
  "turndown",
  "@joplin/turndown-plugin-gfm",
];

test(
  "the activation bundle is within its budget and holds none of the libraries loaded on first use",
  { timeout: 120_000 },
  async () => {
    const budgets = readBudgets();
    const bundle = await activationBundle();
    if (process.env.FATHOM_RECORD_BUDGET === "1") writeBudgets({ ...budgets, activationModules: bundle.modules });
    const lazyInside = LAZY_PACKAGES.filter((p) => bundle.modules[p] !== undefined);
    assert.deepEqual(lazyInside, [], `loaded at activation, but meant for first use: ${lazyInside.join(", ")}`);
    for (const file of [
      "./vendor/openaiLib.js",
      "./vendor/anthropicLib.js",
      "./vendor/sandboxLib.js",
      "./vendor/mcpLib.js",
      "./vendor/shellLib.js",
      "./vendor/yamlLib.js",
      "./vendor/webPageLib.js",
    ]) {
      assert.ok(bundle.external.includes(file), `the activation bundle loads ${file} on first use`);
    }
    assert.ok(
      bundle.bytes <= budgets.activationJsBytes,
      `The bundle loaded at activation is ${(bundle.bytes / 1024).toFixed(1)} KB, over its budget of ${(budgets.activationJsBytes / 1024).toFixed(1)} KB. What grew since the budget was set:\n  ${grown(bundle.modules, budgets.activationModules).join("\n  ") || "(nothing by more than 0.5 KB: many small changes)"}\nLoad the new code on first use (src/core/vendor/libraries.ts), or raise the budget in bench/budgets.json saying why.`,
    );
  },
);

test(
  "the lazy bundles leave out what Fathom never runs (node-forge, domino, cssomnom), and web pages still convert",
  { timeout: 120_000 },
  async () => {
    const out = mkdtempSync(path.join(tmpdir(), "fathom-vendor-"));
    try {
      execFileSync(
        process.execPath,
        [
          "scripts/build.mjs",
          "--production",
          "--only",
          "extension",
          "--outdir",
          out,
          "--metafile",
          path.join(out, "meta.json"),
        ],
        { cwd: path.resolve(import.meta.dirname, "../../.."), stdio: "ignore" },
      );
      const meta = JSON.parse(readFileSync(path.join(out, "meta.json"), "utf8")) as {
        outputs: Record<string, { inputs: Record<string, unknown> }>;
      };
      const shipped = Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs));
      for (const name of ["node-forge", "@mixmark-io/domino", "cssomnom"])
        assert.deepEqual(
          shipped.filter((input) => input.includes(`node_modules/${name}/`)),
          [],
          `${name} is in a bundle the vsix ships`,
        );
      // The bundle as shipped: a page with a table converts through linkedom alone.
      const { htmlToMarkdown } = await import("../../../src/core/web/pageText");
      const lib = createRequire(import.meta.url)(path.join(out, "vendor", "webPageLib.js")) as ReturnType<
        typeof webPageLib
      >;
      assert.equal(typeof lib.TurndownService, "function");
      const service = new lib.TurndownService();
      service.use(lib.gfm);
      const body = lib.parseHTML("<!doctype html><html><body><p>Hi <b>there</b></p></body></html>").document.body;
      assert.equal(service.turndown(body as never), "Hi **there**");
      const page = `<html><body><article><h1>Docs</h1><p>${"Fathom reads files and asks before it writes. ".repeat(8)}</p>
        <table><tr><th>Setting</th><th>Default</th></tr><tr><td>maxSteps</td><td>100</td></tr></table></article></body></html>`;
      assert.match(htmlToMarkdown(page, "https://x.test/").markdown, /\| Setting \| Default \|/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);
