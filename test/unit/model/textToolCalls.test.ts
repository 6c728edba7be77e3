// Tool calls written in a model's text: the forms local models use, and what stays text.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  extractTextToolCalls,
  textToolPrompt,
  toTextToolMessages,
} from "../../../src/core/model/toolCalls/textToolCalls";
import type { ChatMessage } from "../../../src/core/model/types";

const KNOWN = new Set(["read_file", "ls", "execute"]);

describe("extractTextToolCalls", () => {
  it("reads <tool_call> blocks (Hermes / Qwen), several of them, and keeps the prose", () => {
    const text =
      'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"file_path": "/a.ts"}}\n</tool_call>\n<tool_call>{"name":"ls","arguments":{"path":"/"}}</tool_call>';
    const found = extractTextToolCalls(text, KNOWN);
    assert.ok(found);
    assert.deepEqual(
      found.calls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [
        ["read_file", { file_path: "/a.ts" }],
        ["ls", { path: "/" }],
      ],
    );
    assert.equal(found.text, "Let me look.");
    assert.notEqual(found.calls[0]!.id, found.calls[1]!.id);
  });

  it("accepts a <tool_call> left unclosed at the end of the answer", () => {
    const found = extractTextToolCalls('<tool_call>{"name": "ls", "arguments": {"path": "/src"}}', KNOWN);
    assert.deepEqual(
      found?.calls.map((c) => c.name),
      ["ls"],
    );
    assert.equal(found?.text, "");
  });

  it("reads fenced JSON, an array of calls, `parameters` and string arguments", () => {
    const text =
      'I will run the tests.\n```json\n[{"name": "execute", "parameters": {"command": "npm test"}}, {"name": "ls", "arguments": "{\\"path\\": \\"/\\"}"}]\n```\nThen report.';
    const found = extractTextToolCalls(text, KNOWN);
    assert.deepEqual(
      found?.calls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [
        ["execute", { command: "npm test" }],
        ["ls", { path: "/" }],
      ],
    );
    assert.equal(found?.text, "I will run the tests.\n\nThen report.");
  });

  it("reads an answer that is nothing but the call's JSON, and OpenAI's own {function: …} shape", () => {
    assert.deepEqual(
      extractTextToolCalls('  {"name": "ls", "arguments": {"path": "/"}}  ', KNOWN)?.calls.map((c) => c.name),
      ["ls"],
    );
    assert.deepEqual(
      extractTextToolCalls(
        '{"type":"function","function":{"name":"read_file","arguments":"{\\"file_path\\":\\"/x\\"}"}}',
        KNOWN,
      )?.calls.map((c) => c.arguments),
      ['{"file_path":"/x"}'],
    );
  });

  it("leaves text alone: unknown tools, invalid JSON, JSON that is not a call, no tools offered", () => {
    assert.equal(extractTextToolCalls('<tool_call>{"name": "rm_rf", "arguments": {}}</tool_call>', KNOWN), undefined);
    assert.equal(
      extractTextToolCalls('<tool_call>{"name": "ls", "arguments": {"path": </tool_call>', KNOWN),
      undefined,
    );
    assert.equal(
      extractTextToolCalls('Here is the config:\n```json\n{"name": "my-package", "version": "1.0.0"}\n```', KNOWN),
      undefined,
    );
    assert.equal(extractTextToolCalls('```json\n{"name": "ls", "arguments": [1, 2]}\n```', KNOWN), undefined);
    assert.equal(extractTextToolCalls('{"name": "ls", "arguments": {}}', new Set()), undefined);
    assert.equal(extractTextToolCalls("Plain answer.", KNOWN), undefined);
    // One unknown call in an array spoils the block: nothing is run by halves.
    assert.equal(
      extractTextToolCalls('```json\n[{"name": "ls", "arguments": {}}, {"name": "nope", "arguments": {}}]\n```', KNOWN),
      undefined,
    );
  });
});

describe("the prompt side, for models that get tools as text", () => {
  it("describes each tool with its JSON schema and the <tool_call> form", () => {
    const prompt = textToolPrompt([
      {
        name: "ls",
        description: "List a folder",
        parameters: { type: "object", properties: { path: { type: "string" } } },
      },
    ]);
    assert.match(prompt, /<tool_call>\{"name": "<tool name>", "arguments"/);
    assert.match(prompt, /"name":"ls","description":"List a folder","parameters":\{"type":"object"/);
    assert.equal(textToolPrompt([]), "");
  });

  it("turns earlier calls into <tool_call> text and results into one user message per run", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "look" },
      {
        role: "assistant",
        content: "Looking.",
        toolCalls: [
          { id: "1", name: "ls", arguments: '{"path":"/"}' },
          { id: "2", name: "read_file", arguments: '{"file_path":"/a"}' },
        ],
      },
      { role: "tool", toolCallId: "1", toolName: "ls", content: "a" },
      { role: "tool", toolCallId: "2", toolName: "read_file", content: "no such file", isError: true },
      { role: "assistant", content: "Done." },
    ];
    const out = toTextToolMessages(messages);
    assert.deepEqual(
      out.map((m) => m.role),
      ["user", "assistant", "user", "assistant"],
    );
    assert.equal(
      out[1]!.content,
      'Looking.\n<tool_call>{"name":"ls","arguments":{"path":"/"}}</tool_call>\n<tool_call>{"name":"read_file","arguments":{"file_path":"/a"}}</tool_call>',
    );
    assert.equal(
      out[2]!.content,
      '<tool_result name="ls">\na\n</tool_result>\n<tool_result name="read_file" error="true">\nno such file\n</tool_result>',
    );
    assert.ok(out.every((m) => m.role !== "tool" && !("toolCalls" in m && m.toolCalls)));
  });
});
