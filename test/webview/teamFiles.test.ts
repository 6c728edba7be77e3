/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser.)
// The team files in the chat: the `/` picker, the Agent box, "Rules (N)" and the Team files list.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TeamFilesView } from "../../src/protocol";
import { baseState } from "./fixtures";
import { startHarness, type Harness } from "./harness";

const TEAM: TeamFilesView = {
  rules: [
    { source: "/AGENTS.md", when: "always" },
    { source: "/src/api/AGENTS.md", when: "files under /src/api/" },
  ],
  commands: [
    {
      name: "fix-issue",
      description: "Fix a GitHub issue",
      argumentHint: "NUMBER PRIORITY",
      source: "/.claude/commands/fix-issue.md",
    },
    { name: "review", description: "Review a file", source: "/.github/prompts/review.prompt.md" },
    { name: "new", description: "A file that tries to shadow /new", source: "/.claude/commands/new.md" },
  ],
  skills: [{ name: "pdf", description: "Extract text from PDFs", source: "/.github/skills/pdf/SKILL.md" }],
  agents: [
    { name: "reviewer", description: "Reviews code without changing it", source: "/.github/agents/reviewer.agent.md" },
  ],
  problems: [
    { source: "/.github/agents/bad.agent.md", line: 2, message: "skipped: its front matter is not valid YAML" },
  ],
};

describe("webview team files", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  it("/ asks for the commands once and lists Fathom's own first, then the prompt files'; a pick completes, Enter sends /name args; /new runs here", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState() });
    const box = view.page.getByRole("textbox", { name: "Message" });
    await box.focus();
    await box.pressSequentially("/");
    await view.waitForPosted("listTeamFiles");
    await view.send({ type: "teamFiles", teamFiles: TEAM });
    const list = view.page.getByRole("listbox", { name: "Commands" });
    // Fathom's own commands show at once; wait for the prompt files' to join them.
    await list.getByRole("option", { name: /^\/fix-issue/ }).waitFor();
    const names = await list.getByRole("option").allTextContents();
    assert.match(names[0]!, /^\/new/);
    assert.ok(
      names.some(
        (n) => n.startsWith("/fix-issue") && n.includes("NUMBER PRIORITY") && n.includes("Fix a GitHub issue"),
      ),
      names.join(" | "),
    );
    assert.equal(names.filter((n) => n.startsWith("/new")).length, 1, "a prompt file cannot shadow a built-in");
    await box.pressSequentially("fi");
    assert.equal(await list.getByRole("option").count(), 1);
    await view.page.keyboard.press("Enter");
    assert.equal(await box.inputValue(), "/fix-issue ");
    await box.pressSequentially("42 high");
    await view.page.keyboard.press("Enter");
    assert.deepEqual(await view.waitForPosted("sendMessage"), { type: "sendMessage", text: "/fix-issue 42 high" });
    assert.equal((await view.posted()).filter((m) => m.type === "listTeamFiles").length, 1);

    await box.pressSequentially("/new");
    await view.page.keyboard.press("Enter");
    await view.waitForPosted("newTask");
    assert.equal(
      (await view.posted()).filter((m) => m.type === "sendMessage").length,
      1,
      "/new is not sent as a message",
    );
    await view.page.context().close();
  });

  it("the Agent box offers the custom agents and sends the choice; Rules (N) lists the rules in force, each opens its file", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState({ rules: ["/AGENTS.md", "/src/api/AGENTS.md"] }) });
    assert.equal(
      await view.page.getByRole("combobox", { name: "Agent" }).count(),
      0,
      "no box before any agent is known",
    );
    await view.send({ type: "teamFiles", teamFiles: TEAM });
    const agent = view.page.getByRole("combobox", { name: "Agent" });
    await agent.selectOption("reviewer");
    assert.deepEqual(await view.waitForPosted("setAgent"), { type: "setAgent", agent: "reviewer" });
    await view.send({ type: "agent", agent: "reviewer" });
    await view.page.waitForFunction(
      () => (document.querySelector('select[aria-label="Agent"]') as HTMLSelectElement).value === "reviewer",
    );

    await view.page.locator("header").getByText("Rules (2)").click();
    await view.page
      .getByRole("list", { name: "Rules in force" })
      .getByRole("button", { name: "/src/api/AGENTS.md" })
      .click();
    assert.deepEqual(await view.waitForPosted("openTeamFile"), { type: "openTeamFile", source: "/src/api/AGENTS.md" });
    await view.page.context().close();
  });

  it("the Team files list: each kind with its files, and the problems with file and line", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState() });
    await view.send({ type: "teamFiles", teamFiles: TEAM });
    await view.page.getByText("Team files (7 found, 1 not read)").click();
    await view.page.getByRole("list", { name: "Skills" }).getByRole("button", { name: "pdf" }).click();
    assert.deepEqual(await view.waitForPosted("openTeamFile"), {
      type: "openTeamFile",
      source: "/.github/skills/pdf/SKILL.md",
    });
    await view.page
      .getByRole("list", { name: "Problems reading team files" })
      .getByText("/.github/agents/bad.agent.md:2: skipped: its front matter is not valid YAML")
      .waitFor();
    await view.page.context().close();
  });
});
