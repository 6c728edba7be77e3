/// <reference lib="dom" />
// The "MCP servers" list: each server's state, tools and schema size, a failure's reason, and
// Restart / Show log posting the right messages.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { baseState } from "./fixtures";
import { startHarness, type Harness } from "./harness";

describe("webview MCP servers list", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  it("lists servers with state, tools and schema size; restarts one and shows the log", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState() });
    assert.equal(await view.page.getByText(/MCP servers/).count(), 0, "no list before any server");
    await view.send({
      type: "mcpServers",
      servers: [
        {
          name: "everything",
          state: "ready",
          tools: 13,
          schemaChars: 7653,
          source: "/home/me/.config/fathom/mcp.json",
        },
        {
          name: "db",
          state: "failed",
          tools: 0,
          schemaChars: 0,
          problem: 'The MCP server "db" could not start: missing DATABASE_URL',
          source: "/ws/.mcp.json",
        },
      ],
    });
    const summary = view.page.getByText("MCP servers (1/2 ready)");
    await summary.click();
    const ready = view.page.getByRole("listitem", { name: "everything: ready" });
    await ready.getByText("ready · 13 tools · 7.7k chars of schemas").waitFor();
    const failed = view.page.getByRole("listitem", { name: "db: failed" });
    await failed.getByText(/missing DATABASE_URL/).waitFor();
    await view.clearPosted();
    await failed.getByRole("button", { name: "Restart db" }).click();
    assert.deepEqual(await view.waitForPosted("mcpAction"), { type: "mcpAction", action: "restart", server: "db" });
    await view.clearPosted();
    await ready.getByRole("button", { name: "Show the log of everything" }).click();
    assert.deepEqual(await view.waitForPosted("mcpAction"), {
      type: "mcpAction",
      action: "showLog",
      server: "everything",
    });
    // Disable, and a disabled server offers Enable (and no Restart).
    await view.clearPosted();
    await ready.getByRole("button", { name: "Disable everything" }).click();
    assert.deepEqual(await view.waitForPosted("mcpAction"), {
      type: "mcpAction",
      action: "disable",
      server: "everything",
    });
    await view.send({
      type: "mcpServers",
      servers: [
        { name: "everything", state: "disabled", tools: 0, schemaChars: 0, source: "/home/me/.config/fathom/mcp.json" },
        { name: "later", state: "stopped", tools: 0, schemaChars: 0, source: "/home/me/.config/fathom/mcp.json" },
      ],
    });
    const disabled = view.page.getByRole("listitem", { name: "everything: disabled" });
    await disabled.waitFor();
    assert.equal(await disabled.getByRole("button", { name: "Restart everything" }).count(), 0);
    await view.clearPosted();
    await disabled.getByRole("button", { name: "Enable everything" }).click();
    assert.deepEqual(await view.waitForPosted("mcpAction"), {
      type: "mcpAction",
      action: "enable",
      server: "everything",
    });
    await view.page.getByRole("listitem", { name: "later: not started" }).waitFor();
    await view.send({
      type: "mcpServers",
      servers: [{ name: "db", state: "ready", tools: 4, schemaChars: 900, source: "/ws/.mcp.json" }],
    });
    await view.page.getByText("MCP servers (1/1 ready)").waitFor();
    await view.page.context().close();
  });
});
