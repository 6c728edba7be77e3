// Issue 12, items 4 and 6, and the "invalid schema" fault: a server whose tool list holds
// invalid schemas (sent by the SDK's low-level Server, which does not check what it sends) keeps
// its good tools; arguments are checked against a tool's JSON Schema before the person is asked;
// Cancel reaches the server as notifications/cancelled; resource links and structured content
// (server-everything's own tools, and a fixture's) reach the model; a very large result is
// evicted like any tool's.
import { describe, it, after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { McpHub } from "../../../src/core/mcp/mcpHub";
import type { McpServerConfig } from "../../../src/core/mcp/config";
import type { ApprovalRequest } from "../../../src/core/approval";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

const ROOT = path.resolve(__dirname, "../../..");
const base = {
  transport: "stdio" as const,
  command: process.execPath,
  env: {},
  headers: {},
  disabled: false,
  timeoutMs: 20_000,
  autoApprove: [],
  disabledTools: [],
  source: "test",
};
const configs: McpServerConfig[] = [
  { ...base, name: "odd", args: [path.join(ROOT, "test/support/mcpOddServer.mjs")] },
  {
    ...base,
    name: "everything",
    args: [path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")],
  },
];
const dir = mkdtempSync(path.join(tmpdir(), "fathom-mcp-results-"));
const logged: string[] = [];
const hub = new McpHub(configs, { workspaceRoot: dir, log: (line) => logged.push(line) });
before(async () => assert.deepEqual(await hub.start(), []));
after(() => hub.stop());

const tool = (name: string) => {
  const found = hub.tools().tools.find((t) => t.name === name);
  assert.ok(
    found,
    `${name} among ${hub
      .tools()
      .tools.map((t) => t.name)
      .join(", ")}`,
  );
  return found;
};
const ctx = () => ({ signal: new AbortController().signal, toolCallId: "t" });

describe("a server that sends invalid schemas", () => {
  it("keeps every named tool; a bad schema becomes an empty one, said to the model and the log", async () => {
    const names = hub
      .tools()
      .tools.filter((t) => t.name.startsWith("mcp__odd__"))
      .map((t) => t.name.slice("mcp__odd__".length));
    assert.deepEqual(names.sort(), [
      "bad_type",
      "big",
      "good",
      "links",
      "no_schema",
      "string_schema",
      "structured",
      "wait",
    ]);
    for (const name of ["string_schema", "no_schema", "bad_type"]) {
      const t = tool(`mcp__odd__${name}`);
      assert.deepEqual(t.parameters, { type: "object", properties: {} }, name);
      assert.match(
        t.description,
        /Its parameters are not described \(the server's schema is invalid: .+\); the server checks the arguments\./,
        name,
      );
      // Still callable: the server gets the arguments as given.
      assert.equal((await t.run({ a: 1 }, ctx())).content, `${name} got {"a":1}`);
    }
    assert.deepEqual(tool("mcp__odd__good").parameters, {
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    });
    assert.ok(
      logged.some((l) => /odd: ignored an entry without a name/.test(l)),
      logged.join("\n"),
    );
    assert.ok(
      logged.some((l) => /the input schema of bad_type is invalid \(.*type.*\)/.test(l)),
      logged.join("\n"),
    );
  });

  it("arguments that do not match a tool's schema are refused before the person is asked, with the schema", async () => {
    const asked: ApprovalRequest[] = [];
    const model = new FakeModel([
      { toolCalls: [{ name: "mcp__odd__good", arguments: { n: "four" } }] },
      { toolCalls: [{ name: "mcp__odd__good", arguments: { n: 4 } }] },
      { text: "8" },
    ]);
    const agent = createAgent({
      model,
      workspaceRoot: dir,
      tools: hub.tools().tools,
      rules: false,
      approvalGate: { request: async (r) => (asked.push(r), { type: "approve" }) },
    });
    await collect(agent, "double four");
    const refused = JSON.stringify(model.requests[1]!.messages.at(-1));
    assert.match(refused, /arguments\/n must be number/);
    assert.match(refused, /The parameters of mcp__odd__good \(JSON Schema\).*\\"required\\":\[\\"n\\"\]/);
    assert.equal(asked.length, 1, "only the valid call was asked about");
    assert.equal(JSON.parse(JSON.stringify(model.requests[2]!.messages.at(-1))).content, "8");
  });
});

describe("results", () => {
  it("Cancel sends notifications/cancelled: the server's handler is told, and the call ends at once", async () => {
    const controller = new AbortController();
    const odd = hub.servers.find((s) => s.name === "odd")!;
    const waiting = tool("mcp__odd__wait").run({}, { signal: controller.signal, toolCallId: "w" });
    const deadline = Date.now() + 5_000;
    while (!odd.stderr.some((l) => l.startsWith("waiting on request")) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const result = await waiting;
    assert.match(result.content, /Cancelled/);
    const id = /waiting on request (\S+)/.exec(odd.stderr.join("\n"))![1];
    while (!odd.stderr.some((l) => l.startsWith(`cancelled request ${id}`)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.ok(
      odd.stderr.some((l) => l.startsWith(`cancelled request ${id}`)),
      odd.stderr.join("\n"),
    );
  });

  it("resource links and structured content become text the model reads (server-everything)", async () => {
    const links = await tool("mcp__everything__get-resource-links").run({ count: 2 }, ctx());
    assert.match(links.content, /\[resource link demo:\/\/resource\/\S+ \(.+\)/);
    const weather = await tool("mcp__everything__get-structured-content").run({ location: "Chicago" }, ctx());
    assert.match(weather.content, /"conditions": ?"Light rain \/ drizzle"/);
    assert.equal(
      weather.content.match(/Light rain/g)?.length,
      1,
      "structured content that the text repeats is not sent twice",
    );
  });

  it("structured content the text does not repeat is added; alone, it is the result", async () => {
    const both = await tool("mcp__odd__links").run({}, ctx());
    assert.match(
      both.content,
      /^Two files match\.\n\n\[resource link file:\/\/\/srv\/report.csv \(report.csv, text\/csv\): The monthly report\]\n\nStructured content:\n\{\n {2}"matches": 2/,
    );
    const alone = await tool("mcp__odd__structured").run({}, ctx());
    assert.deepEqual(JSON.parse(alone.content), { temperature: 21.5, unit: "C" });
  });

  it("a very large result goes through the eviction (a preview and a path the model can page through)", async () => {
    const model = new FakeModel([{ toolCalls: [{ name: "mcp__odd__big", arguments: {} }] }, { text: "ok" }]);
    const agent = createAgent({
      model,
      workspaceRoot: dir,
      tools: hub.tools().tools,
      rules: false,
      approvalPolicy: { other: "auto" },
    });
    const events = await collect(agent, "get it all");
    const sent = JSON.parse(JSON.stringify(model.requests[1]!.messages.at(-1))).content as string;
    assert.ok(sent.length < 10_000, `${sent.length} characters sent`);
    assert.match(
      sent,
      /The mcp__odd__big result was too long to show \(\d+ characters, 4000 lines\)\. It is saved at \/large_tool_results\//,
    );
    assert.ok(JSON.stringify(events).includes("tool_result_evicted"));
  });
});
