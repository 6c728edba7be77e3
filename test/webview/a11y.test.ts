/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser.)
// Accessibility and themes: axe-core finds no serious or critical violations, the page keeps
// to the real CSP, and screenshots in light, dark and high-contrast themes are saved to
// test-output/webview/ for a person to look at.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { manyItems, richState } from "./fixtures";
import { OUTPUT_DIR, startHarness, type Harness, type WebviewPage } from "./harness";
import type { ThemeKind } from "./themes";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

async function axe(view: WebviewPage): Promise<AxeViolation[]> {
  // evaluate() runs through DevTools, outside the page's CSP.
  await view.page.evaluate(axeSource);
  const result = await view.page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    // Syntax token colours are the theme's own (as in VS Code's editor and diff editor), so
    // contrast is checked for everything but the highlighted code tokens.
    return axe.run({ exclude: [] }, { resultTypes: ["violations"], rules: {} }).then(async (all) => {
      const tokens = await axe.run(
        { include: [["body"]], exclude: [["[class^='hljs-']"]] },
        { runOnly: ["color-contrast"], resultTypes: ["violations"] },
      );
      return { violations: [...all.violations.filter((v) => v.id !== "color-contrast"), ...tokens.violations] };
    });
  });
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(" ")} ${n.failureSummary ?? ""}`)
          .join("\n  ")}`,
    )
    .join("\n");
}

describe("webview accessibility and themes", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
    mkdirSync(OUTPUT_DIR, { recursive: true });
  });
  after(async () => harness?.stop());

  for (const theme of ["light", "dark", "high-contrast"] as ThemeKind[]) {
    it(`has no serious axe violations and keeps to the CSP (${theme})`, async () => {
      const view = await harness.open({ theme, width: 440, height: 1100 });
      await view.send({ type: "state", state: richState() });
      await view.page.getByRole("region", { name: "Proposed change to /src/slugify.js" }).waitFor();
      // Expand one tool card so its details are checked too.
      await view.page.getByRole("button", { name: "Reading /src/slugify.js" }).click();
      await view.page.screenshot({ path: path.join(OUTPUT_DIR, `chat-${theme}.png`) });
      const violations = await axe(view);
      assert.equal(violations.length, 0, describeViolations(violations));
      assert.deepEqual(await view.cspViolations(), []);
      assert.deepEqual(harness.pageErrors, []);
      await view.page.context().close();
    });
  }

  it("stays accessible with a first-run view, a banner and the mention picker (screenshots)", async () => {
    for (const theme of ["light", "dark", "high-contrast"] as ThemeKind[]) {
      const view = await harness.open({ theme, width: 440, height: 640 });
      await view.send({
        type: "state",
        state: richState({
          items: manyItems(40),
          status: "running",
          banner: {
            level: "error",
            message: "The model was not found at this base URL (404).",
            retryable: true,
            action: "fathom.openSettings",
          },
          queued: ["Also update the README"],
        }),
      });
      const box = view.page.getByRole("textbox", { name: "Message" });
      await box.fill("");
      await box.pressSequentially("Look at @sl");
      const search = await view.waitForSearch("sl");
      await view.send({
        type: "mentionResults",
        requestId: search.requestId,
        files: [{ path: "/src/slugify.js" }, { path: "/src/slug/", isDir: true }],
      });
      await view.page.getByRole("option", { name: "/src/slugify.js" }).waitFor();
      await view.page.screenshot({ path: path.join(OUTPUT_DIR, `busy-${theme}.png`) });
      const violations = await axe(view);
      assert.equal(violations.length, 0, describeViolations(violations));
      await view.send({
        type: "state",
        state: richState({
          items: [],
          todos: [],
          setupProblem: { message: "No API key is set for OpenAI.", action: "fathom.setApiKey" },
        }),
      });
      await view.page.getByRole("heading", { name: "Set up Fathom" }).waitFor();
      await view.page.screenshot({ path: path.join(OUTPUT_DIR, `setup-${theme}.png`) });
      const setupViolations = await axe(view);
      assert.equal(setupViolations.length, 0, describeViolations(setupViolations));
      assert.deepEqual(await view.cspViolations(), []);
      await view.page.context().close();
    }
    assert.deepEqual(harness.pageErrors, []);
  });

  it("stays accessible with chips in the message box and on a sent message (screenshots)", async () => {
    for (const theme of ["light", "dark", "high-contrast"] as ThemeKind[]) {
      const view = await harness.open({ theme, width: 440, height: 640 });
      await view.send({
        type: "state",
        state: richState({
          items: [
            {
              id: "u1",
              kind: "user",
              text: "Why does this fail?",
              attachments: [
                { kind: "file", label: "src/slugify.js:3-9", path: "/src/slugify.js", line: 3 },
                { kind: "terminal", label: "Terminal: npm test (exit 1)" },
              ],
            },
          ],
        }),
      });
      await view.send({
        type: "attachments",
        attachments: [
          { kind: "file", path: "/src/slugify.js", startLine: 3, endLine: 9 },
          { kind: "terminal", label: "Terminal: npm test (exit 1)", text: "$ npm test\nexit code: 1\nFAIL" },
          { kind: "problems", label: "Problems (1 error)", text: "/src/a.ts:1:1 error: nope" },
        ],
        notice: "Already attached.",
      });
      await view.page.getByRole("list", { name: "Attached to the next message (3)" }).waitFor();
      await view.page.screenshot({ path: path.join(OUTPUT_DIR, `chips-${theme}.png`) });
      const violations = await axe(view);
      assert.equal(violations.length, 0, describeViolations(violations));
      await view.page.context().close();
    }
    assert.deepEqual(harness.pageErrors, []);
  });

  it("shows a visible focus ring on every control reached with Tab", async () => {
    const view = await harness.open({ theme: "dark", width: 440, height: 1100 });
    await view.send({ type: "state", state: richState() });
    await view.page.getByRole("region", { name: "Proposed change to /src/slugify.js" }).waitFor();
    const seen: string[] = [];
    for (let i = 0; i < 40; i += 1) {
      await view.page.keyboard.press("Tab");
      const focus = await view.page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        const name = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? el.tagName;
        return { name, outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
      });
      if (!focus) continue;
      assert.notEqual(focus.outline, "none", `no focus outline on "${focus.name}"`);
      assert.ok(focus.width >= 1, `focus outline too thin on "${focus.name}"`);
      seen.push(focus.name);
    }
    for (const name of ["Task history", "New task", "Message"])
      assert.ok(seen.includes(name), `Tab never reached "${name}": ${seen.join(" | ")}`);
    assert.ok(
      seen.some((n) => n.includes("Approve")),
      `Tab never reached Approve: ${seen.join(" | ")}`,
    );
    await view.page.context().close();
  });
});
