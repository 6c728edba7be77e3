/** The scripted model server itself: recording, queue, and the standalone process. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createModel } from "../../../src/core/model/createModel";
import { chunks } from "../../support/scriptedWire";
import { startScriptedModelServer } from "../../support/scriptedModelServer";
import { collect, request } from "./helpers";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolveLine, reject) => {
    let buf = "";
    let err = "";
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout?.on("data", (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf("\n");
      if (nl >= 0) resolveLine(buf.slice(0, nl));
    });
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before printing its URL: ${err}`)));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<string>((r) =>
    child.once("exit", (code, signal) => r(code === null ? `signal ${signal}` : `code ${code}`)),
  );

describe("scripted model server", () => {
  it("chunks text into several realistic pieces that join back", () => {
    const text = '{"file_path":"/src/a.ts","offset":1}';
    const parts = chunks(text);
    assert.ok(parts.length >= 3);
    assert.equal(parts.join(""), text);
    assert.deepEqual(chunks("ab"), ["a", "b"]);
    assert.deepEqual(chunks(""), []);
  });

  it("records bodies and headers, and says when the script is exhausted", async () => {
    const server = await startScriptedModelServer([{ text: "one" }]);
    try {
      const model = createModel({
        provider: "openai-compatible",
        model: "m",
        baseUrl: server.baseUrlOpenAI,
        apiKey: "k1",
        defaultHeaders: { "x-test": "yes" },
      });
      await collect(model.stream(request()));
      const run = await collect(model.stream(request()));
      assert.equal(server.requests.length, 2);
      assert.equal(server.requests[0]?.headers["x-test"], "yes");
      assert.equal(server.requests[0]?.turnIndex, 0);
      assert.equal(server.requests[0]?.wire, "openai");
      assert.equal(server.requests[1]?.turnIndex, undefined);
      assert.match(run.error?.message ?? "", /script exhausted \(request #2, 1 turns played\)/);
    } finally {
      await server.close();
    }
  });

  it("runs as a process: prints its URL, takes turns over HTTP, exits when stdin closes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fathom-scripted-"));
    const file = join(dir, "script.json");
    writeFileSync(file, JSON.stringify([{ text: "from the file" }]));
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/support/scriptedModelServerMain.ts", "--script", file, "--port", "0"],
      {
        cwd: ROOT,
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    try {
      const url = await firstLine(child);
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const model = createModel({ provider: "anthropic", model: "claude-haiku-4-5", baseUrl: url, apiKey: "k" });
      assert.equal((await collect(model.stream(request()))).done?.message.content, "from the file");
      await fetch(`${url}/__script`, {
        method: "POST",
        body: JSON.stringify([{ toolCalls: [{ name: "ls", arguments: { path: "/" } }] }]),
      });
      const run = await collect(model.stream(request()));
      assert.equal(run.done?.message.toolCalls?.[0]?.arguments, '{"path":"/"}');
      const recorded = (await (await fetch(`${url}/__requests`)).json()) as { path: string }[];
      assert.deepEqual(
        recorded.map((r) => r.path),
        ["/v1/messages", "/v1/messages"],
      );
      const exit = exited(child);
      child.stdin?.end();
      assert.equal(await exit, "code 0");
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("exits on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/scriptedModelServerMain.ts"], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
    });
    try {
      await firstLine(child);
      const exit = exited(child);
      child.kill("SIGTERM");
      assert.equal(await exit, "code 0");
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
