// MCP resources attached with `@` (issue 12, item 7): server-everything's resources are listed,
// and `@mcp:<server>:<uri>` in a message attaches the resource's text before the model sees it;
// a resource that cannot be read is said, and the message still goes.
import { describe, it, after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { McpHub } from "../../../src/core/mcp/mcpHub";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

const ROOT = path.resolve(__dirname, "../../..");
const dir = mkdtempSync(path.join(tmpdir(), "fathom-mcp-res-"));
const hub = new McpHub(
  [
    {
      name: "everything",
      transport: "stdio",
      command: process.execPath,
      args: [path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")],
      env: {},
      headers: {},
      disabled: false,
      timeoutMs: 20_000,
      autoApprove: [],
      disabledTools: [],
      source: "test",
    },
  ],
  { workspaceRoot: dir },
);
before(async () => assert.deepEqual(await hub.start(), []));
after(() => hub.stop());

describe("MCP resources", () => {
  it("are listed with server, URI and name", () => {
    const architecture = hub.resources().find((r) => r.uri === "demo://resource/static/document/architecture.md");
    assert.deepEqual(architecture && { server: architecture.server, name: architecture.name }, {
      server: "everything",
      name: "architecture.md",
    });
  });

  it("@mcp:server:uri attaches the resource's text; one that cannot be read says why", async () => {
    const model = new FakeModel([{ text: "Read it." }]);
    const agent = createAgent({
      model,
      workspaceRoot: dir,
      backend: new FilesystemBackend({ rootDir: dir }),
      rules: false,
      readMcpResource: (server, uri, signal) => hub.readResource(server, uri, signal),
    });
    await collect(
      agent,
      "Summarise @mcp:everything:demo://resource/static/document/architecture.md and @mcp:everything:demo://nope, and @mcp:ghost:x://y.",
    );
    const sent = model.requests[0]!.messages.at(-1)!.content;
    assert.match(
      sent,
      /<resource server="everything" uri="demo:\/\/resource\/static\/document\/architecture.md">\n# Everything Server – Architecture/,
    );
    assert.match(sent, /<resource server="everything" uri="demo:\/\/nope">\n\(could not attach: .+\)/);
    assert.match(
      sent,
      /<resource server="ghost" uri="x:\/\/y">\n\(could not attach: No enabled MCP server is named "ghost"\.\)/,
    );
  });
});
