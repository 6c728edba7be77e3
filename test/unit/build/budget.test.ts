// The JS Fathom's extension loads at activation stays within its budget (bench/budgets.json),
// and the libraries it loads on first use stay out of it. A failure names the modules that grew.
// FATHOM_RECORD_BUDGET=1 records today's module sizes (after a reviewed change of the budget).
import assert from "node:assert/strict";
import { test } from "node:test";
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
