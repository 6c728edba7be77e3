// `terminal_output`: the person's terminals' last commands, offered from the second step on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "../../../src/core/agent/createAgent";
import type { PersonTerminals } from "../../../src/core/middleware/terminalOutput";
import type { TerminalCapture } from "../../../src/core/terminalCapture";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

const base = { workspaceRoot: "/tmp/ws", rules: false, generalPurposeSubagent: false } as const;

function terminals(captures: TerminalCapture[], names = captures.map((c) => c.terminalName)): PersonTerminals {
  return { lastCommands: async () => captures, names: () => names };
}

const failedBuild: TerminalCapture = {
  terminalName: "bash",
  command: "npm run build",
  exitCode: 2,
  output: "\x1b[31msrc/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\x1b[0m\r\n",
};
const server: TerminalCapture = {
  terminalName: "dev",
  command: "npm start",
  output: "listening on 3000\n",
  running: true,
};

test("the model reads the person's last commands: line, exit code, output without escapes", async () => {
  const model = new FakeModel([
    { toolCalls: [{ name: "ls", arguments: { path: "/" } }] },
    { toolCalls: [{ name: "terminal_output", arguments: {} }] },
    { toolCalls: [{ name: "terminal_output", arguments: { terminal: "BASH" } }] },
    { text: "The build fails on a type error in src/a.ts." },
  ]);
  const { done } = await collect(
    createAgent({ ...base, model, personTerminals: terminals([failedBuild, server]) }),
    "Why does my build fail?",
  );
  assert.equal(done.reason, "completed");
  assert.ok(!model.requests[0]!.toolNames.includes("terminal_output"), "not in the first request");
  assert.ok(model.requests[1]!.toolNames.includes("terminal_output"), "offered once a tool ran");
  assert.match(model.requests[1]!.system, /# The person's terminals/);
  const all = model.requests[2]!.messages.at(-1)!.content as string;
  assert.match(all, /Terminal "bash":\n\$ npm run build\nexit code: 2\nsrc\/a\.ts\(3,7\): error TS2322/);
  assert.match(
    all,
    /Terminal "dev":\n\$ npm start\nexit code: none yet \(the command was still running\)\nlistening on 3000/,
  );
  assert.ok(!all.includes("\x1b"), "escape sequences removed");
  const one = model.requests[3]!.messages.at(-1)!.content as string;
  assert.match(one, /Terminal "bash"/);
  assert.doesNotMatch(one, /Terminal "dev"/);
});

test("a name that is not open, or no command seen: an error that lists the open terminals and says what to do", async () => {
  const model = new FakeModel([
    { toolCalls: [{ name: "ls", arguments: { path: "/" } }] },
    { toolCalls: [{ name: "terminal_output", arguments: { terminal: "zsh" } }] },
    { toolCalls: [{ name: "terminal_output", arguments: {} }] },
    { text: "I cannot see it." },
  ]);
  await collect(
    createAgent({ ...base, model, personTerminals: terminals([], ["bash", "node"]) }),
    "What did my test print?",
  );
  const unknown = model.requests[2]!.messages.at(-1)!.content as string;
  assert.match(unknown, /No terminal is named "zsh"\. Open terminals: "bash", "node"\./);
  const none = model.requests[3]!.messages.at(-1)!.content as string;
  assert.match(
    none,
    /No terminal has a command Fathom saw .* Ask the person to run the command again, or to paste its output\./,
  );
});

test("no terminals from the host (the CLI): no tool", async () => {
  const model = new FakeModel([{ toolCalls: [{ name: "ls", arguments: { path: "/" } }] }, { text: "ok" }]);
  await collect(createAgent({ ...base, model }), "list");
  assert.ok(!model.requests[1]!.toolNames.includes("terminal_output"));
});
