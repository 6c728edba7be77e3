import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { ESLint } from "eslint";

// The layer rules of ARCHITECTURE.md are lint errors; these cases prove the config rejects a
// wrong-way import and accepts a right-way one, so the rule cannot silently stop working.
const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

async function restrictedImportErrors(file: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").length;
}

describe("layer rules", () => {
  const cases: { file: string; code: string; errors: number }[] = [
    { file: "src/core/probe.ts", code: 'import * as vscode from "vscode";\nexport const v = vscode;\n', errors: 1 },
    {
      file: "src/core/agent/probe.ts",
      code: 'import { activate } from "../../host/extension";\nexport const a = activate;\n',
      errors: 1,
    },
    {
      file: "src/core/probe.ts",
      code: 'import { z } from "zod";\nimport path from "node:path";\nexport const a = [z, path];\n',
      errors: 0,
    },
    {
      file: "src/core/middleware/probe.ts",
      code: 'import type { Agent } from "../agent/createAgent";\nexport type A = Agent;\n',
      errors: 1,
    },
    {
      file: "src/core/middleware/probe.ts",
      code: 'import * as vscode from "vscode";\nexport const v = vscode;\n',
      errors: 1,
    },
    {
      file: "src/core/middleware/probe.ts",
      code: 'import type { RunState } from "../run/runState";\nexport type S = RunState;\n',
      errors: 0,
    },
    {
      file: "src/core/headless/probe.ts",
      code: 'import { createAgent } from "../agent/createAgent";\nexport const c = createAgent;\n',
      errors: 0,
    },
    {
      file: "src/protocol/probe.ts",
      code: 'import { readFile } from "node:fs/promises";\nexport const a = readFile;\n',
      errors: 1,
    },
    { file: "src/cli/probe.ts", code: 'import * as vscode from "vscode";\nexport const v = vscode;\n', errors: 1 },
    { file: "src/action/probe.ts", code: 'import * as vscode from "vscode";\nexport const v = vscode;\n', errors: 1 },
    { file: "src/action/probe.ts", code: 'import { main } from "../cli/main";\nexport const m = main;\n', errors: 1 },
    {
      file: "src/core/probe.ts",
      code: 'import { runAction } from "../action/main";\nexport const r = runAction;\n',
      errors: 1,
    },
    {
      file: "src/host/probe.ts",
      code: 'import { runAction } from "../action/main";\nexport const r = runAction;\n',
      errors: 1,
    },
    {
      file: "src/host/review/probe.ts",
      code: 'import { runAction } from "../../action/main";\nexport const r = runAction;\n',
      errors: 1,
    },
    {
      file: "src/action/probe.ts",
      code: 'import { createAgent } from "../core/agent/createAgent";\nexport const c = createAgent;\n',
      errors: 0,
    },
    {
      file: "src/host/review/probe.ts",
      code: 'import type { ChatSession } from "../tasks/chatSession";\nexport type S = ChatSession;\n',
      errors: 1,
    },
    {
      file: "src/host/context/probe.ts",
      code: 'import type { TaskManager } from "../tasks/taskManager";\nexport type T = TaskManager;\n',
      errors: 1,
    },
    {
      file: "src/host/models/probe.ts",
      code: 'import type { SessionEnv } from "../wiring/sessionEnv";\nexport type E = SessionEnv;\n',
      errors: 0,
    },
    {
      file: "webview-ui/src/probe.ts",
      code: 'import { defineTool } from "../../src/core/tools/tool";\nexport const a = defineTool;\n',
      errors: 1,
    },
    {
      file: "webview-ui/src/probe.ts",
      code: 'import { parseMessage } from "../../src/protocol";\nexport const a = parseMessage;\n',
      errors: 0,
    },
  ];
  for (const { file, code, errors } of cases) {
    it(`${file}: ${code.split("\n")[0]} → ${errors ? "refused" : "allowed"}`, async () => {
      assert.equal(await restrictedImportErrors(file, code), errors);
    });
  }
});
