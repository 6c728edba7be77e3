// MCP in a real extension host (issue 12): a server from the person's own config file starts
// with the first task, the model calls its tool, the person approves it on the card, and the
// answer reaches the model and the transcript. A workspace's .mcp.json never starts a program
// in Restricted Mode.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { FathomApi } from "../../../src/host/extension";
import type { ToolItem } from "../../../src/protocol";
import { userMcpConfigPath } from "../../../src/core/mcp/mcpHub";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { until } from "./until";

suite("MCP servers", function () {
  this.timeout(90_000);
  let server: ScriptedModelServer;
  let fathom: FathomApi;
  const config = () => vscode.workspace.getConfiguration("fathom");
  const userFile = userMcpConfigPath();
  let previousUserFile: string | undefined;
  const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const everything = path.join(
    process.env.FATHOM_REPO_ROOT ?? "",
    "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
  );

  suiteSetup(async () => {
    server = await startScriptedModelServer([]);
    const ext = vscode.extensions.getExtension<FathomApi>("fathom-dev.fathom");
    assert.ok(ext);
    fathom = await ext.activate();
    await config().update("provider", "openai-compatible", vscode.ConfigurationTarget.Global);
    await config().update("baseUrl", server.baseUrlOpenAI, vscode.ConfigurationTarget.Global);
    await config().update("model", "scripted-model", vscode.ConfigurationTarget.Global);
    previousUserFile = fs.existsSync(userFile) ? fs.readFileSync(userFile, "utf8") : undefined;
    fs.mkdirSync(path.dirname(userFile), { recursive: true });
    fs.writeFileSync(
      userFile,
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything] } } }),
    );
  });
  suiteTeardown(async () => {
    if (previousUserFile === undefined) fs.rmSync(userFile, { force: true });
    else fs.writeFileSync(userFile, previousUserFile);
    fs.rmSync(path.join(root(), ".mcp.json"), { force: true });
    for (const key of ["provider", "baseUrl", "model"])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await fathom.restartSession();
    await server.close();
  });

  test("the model calls an MCP tool, the person approves it on the card, the answer comes back", async () => {
    await fathom.session.newTask();
    // Not annotated read-only, so it is asked (the read-only ones follow the read policy).
    server.push(
      { toolCalls: [{ id: "m1", name: "mcp__everything__toggle-simulated-logging", arguments: {} }] },
      { text: "Logging is on." },
    );
    await fathom.session.send("turn on the logging");
    await until("the approval card", () => fathom.session.state.status === "awaiting_approval", 30_000).catch(
      (e: Error) => {
        throw new Error(
          `${e.message}; status ${fathom.session.state.status}; banner ${JSON.stringify(fathom.session.state.banner)}; log: ${fathom.log
            .recent()
            .filter((l) => /MCP|mcp/.test(l))
            .slice(-5)
            .join(" | ")}`,
        );
      },
    );
    const tools = (server.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    // server-everything's 13 tools are loaded on demand; the model may call one by its full name.
    assert.ok(tools.includes("find_tools"), tools.join(", "));
    const card = fathom.session.state.items.find(
      (i): i is ToolItem => i.kind === "tool" && i.toolName.startsWith("mcp__"),
    );
    assert.ok(card);
    assert.equal(card.title, "Calling toggle-simulated-logging on the MCP server everything");
    fathom.session.approve(card.id);
    await fathom.session.whenIdle();
    const result = (server.requests[1]!.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === "tool",
    );
    assert.match(result?.content ?? "", /logging/i);
    const done = fathom.session.state.items.find((i): i is ToolItem => i.kind === "tool" && i.id === card.id);
    assert.equal(done?.status, "done");
    // The view's "MCP servers" list has it, ready, with its tools and their schema size.
    const listed = fathom.session.state.mcpServers.find((s) => s.name === "everything");
    assert.equal(listed?.state, "ready");
    assert.ok((listed?.tools ?? 0) > 10 && (listed?.schemaChars ?? 0) > 1000, JSON.stringify(listed));
  });

  test("Disable from the list stops the server and its tools are not offered; Enable starts it again", async () => {
    await vscode.commands.executeCommand("fathom.setMcpServerEnabled", "everything", false);
    await until(
      "the list says disabled",
      () => fathom.session.state.mcpServers.find((s) => s.name === "everything")?.state === "disabled",
      10_000,
    );
    await fathom.session.newTask();
    const before = server.requests.length;
    server.push({ text: "No MCP tools here." });
    await fathom.session.send("hello");
    await fathom.session.whenIdle();
    const tools = (server.requests[before]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    assert.ok(!tools.some((t) => t === "find_tools" || t.startsWith("mcp__")), tools.join(", "));
    await vscode.commands.executeCommand("fathom.setMcpServerEnabled", "everything", true);
    await until(
      "the list says ready again",
      () => fathom.session.state.mcpServers.find((s) => s.name === "everything")?.state === "ready",
      30_000,
    );
  });

  test("a syntax error in the MCP file is reported with file, line and column, and the other servers still start", async () => {
    // A missing comma on line 3: "everything" still parses and starts.
    fs.writeFileSync(
      userFile,
      `{"mcpServers": {\n  "everything": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(everything)}] }\n  "second": { "command": "x" }\n}}\n`,
    );
    await vscode.commands.executeCommand("fathom.setMcpServerEnabled", "everything", true);
    await fathom.session.newTask();
    server.push({ text: "Hello." });
    await fathom.session.send("hello");
    await fathom.session.whenIdle();
    const reported = fathom.log.recent().find((l) => l.includes(`${userFile}:3:3: JSON syntax error: CommaExpected`));
    assert.ok(
      reported,
      fathom.log
        .recent()
        .filter((l) => /MCP/.test(l))
        .slice(-5)
        .join("\n"),
    );
    await until(
      "everything is ready",
      () => fathom.session.state.mcpServers.find((s) => s.name === "everything")?.state === "ready",
      30_000,
    );
    const tools = (server.requests.at(-1)!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    assert.ok(tools.includes("find_tools"), "its tools are offered");
  });

  test('"Fathom: Open MCP Configuration" creates the file in the mcpServers shape and opens it', async () => {
    const kept = fs.readFileSync(userFile, "utf8");
    fs.rmSync(userFile);
    try {
      await vscode.commands.executeCommand("fathom.openMcpConfig");
      await until("the file is open", () => vscode.window.activeTextEditor?.document.uri.fsPath === userFile, 10_000);
      const text = vscode.window.activeTextEditor!.document.getText();
      assert.match(text, /"mcpServers": \{\}/);
      assert.match(text, /\/\/ The Fathom CLI reads this file too/);
      // Opened again, an existing file is left as it is.
      fs.writeFileSync(userFile, kept);
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
      await vscode.commands.executeCommand("fathom.openMcpConfig");
      await until(
        "the file is open again",
        () => vscode.window.activeTextEditor?.document.uri.fsPath === userFile,
        10_000,
      );
      assert.equal(fs.readFileSync(userFile, "utf8"), kept);
    } finally {
      fs.writeFileSync(userFile, kept);
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    }
  });

  test("in Restricted Mode a workspace's .mcp.json starts nothing", async () => {
    const marker = path.join(root(), "mcp-started.txt");
    fs.writeFileSync(
      path.join(root(), ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          evil: {
            command: process.execPath,
            args: ["-e", `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`],
          },
        },
      }),
    );
    const session = await fathom.restartSession({ isTrusted: () => false });
    server.push({ text: "Hello." });
    await session.send("hello");
    await session.whenIdle();
    assert.ok(!fs.existsSync(marker), "the repository's MCP server was started");
    fs.rmSync(path.join(root(), ".mcp.json"), { force: true });
    await fathom.restartSession();
  });
});
