// Issue 41: code intelligence in the CLI and the Action from a real typescript-language-server
// the run starts (in the OS sandbox where it runs): definitions, references, symbols, hover,
// rename edits and a planted type error; files the agent may not read are never given to it;
// no process of it is left once stopped. One server for the whole file (slow to start on 2 cores).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { isAnswerError, type Answer } from "../../../src/core/codeIntel/codeIntelligence";
import type { LspCodeIntelligence } from "../../../src/core/codeIntel/lsp/lspCodeIntelligence";
import type { CommandSandbox } from "../../../src/core/executor/sandbox";
import type { ProcessRef } from "../../../src/core/mcp/processTree";
import { alive, makeWorkspace, startIntel } from "./lspWorkspace";

const root = makeWorkspace({
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "commonjs" } }),
  "src/greet.ts": `/** Says hello to someone. */\nexport function greet(name: string): string {\n  return "hi " + name;\n}\n\nexport class Greeter {\n  hello(): string {\n    return greet("you");\n  }\n}\n`,
  "src/main.ts": `import { greet } from "./greet";\nconst count: number = greet("a");\nconsole.log(greet("b"), count);\n`,
  // Not for the agent's eyes, so never for the server's: ignored, and a secret by the person's list.
  ".fathomignore": "src/ignored.ts\n",
  "src/ignored.ts": `import { greet } from "./greet";\nexport const hidden: number = greet("ignored");\n`,
  "src/secret.ts": `import { greet } from "./greet";\nexport const token: number = greet("secret");\n`,
});
let intel: LspCodeIntelligence;
let sandbox: CommandSandbox | undefined;
const log: string[] = [];

before(() => {
  ({ intel, sandbox } = startIntel(root, { secretFiles: ["src/secret.ts"], log }));
});
after(async () => {
  await intel.stop();
  await sandbox?.dispose();
  rmSync(root, { recursive: true, force: true });
});

function value<T>(answer: Answer<T>): T {
  if (isAnswerError(answer)) assert.fail(answer.error);
  return answer;
}

test("nothing starts before the first question", () => {
  assert.deepEqual(intel.processes(), []);
  assert.match(log.join("\n"), /typescript-language-server .*started at the first use/);
});

test("references across the project, from the first call (the server started for it)", async () => {
  const refs = value(await intel.references({ path: "/src/greet.ts", line: 2, column: 17 }));
  const places = refs.filter((r) => r.path !== "/src/ignored.ts" && r.path !== "/src/secret.ts");
  assert.deepEqual(places.map((r) => `${r.path}:${r.line}:${r.column}`).sort(), [
    "/src/greet.ts:2:17",
    "/src/greet.ts:8:12",
    "/src/main.ts:1:10",
    "/src/main.ts:2:23",
    "/src/main.ts:3:13",
  ]);
  assert.ok(intel.processes().length > 0, "the server runs now");
});

test("definition, hover and document symbols", async () => {
  const def = value(await intel.definitions({ path: "/src/main.ts", line: 3, column: 13 }));
  assert.deepEqual(
    def.map((d) => `${d.path}:${d.line}:${d.column}`),
    ["/src/greet.ts:2:17"],
  );
  const hover = value(await intel.hover({ path: "/src/main.ts", line: 3, column: 13 })).join("\n");
  assert.match(hover, /greet\(name: string\): string/);
  assert.match(hover, /Says hello to someone/);
  const symbols = value(await intel.documentSymbols("/src/greet.ts"));
  assert.deepEqual(
    symbols.map((s) => `${s.kind} ${s.name} ${s.line}`),
    ["function greet 2", "class Greeter 6"],
  );
  assert.deepEqual(
    symbols[1]!.children?.map((c) => `${c.kind} ${c.name}`),
    ["method hello"],
  );
  const found = value(await intel.workspaceSymbols("Greeter"));
  assert.ok(found.some((s) => s.name === "Greeter" && s.path === "/src/greet.ts" && s.kind === "class"));
});

test("rename: the server's edits per file, nothing written", async () => {
  const edits = value(await intel.rename({ path: "/src/greet.ts", line: 2, column: 17 }, "welcome"));
  const byFile = Object.fromEntries(edits.files.map((f) => [f.path, f.edits.length]));
  assert.equal(byFile["/src/greet.ts"], 2);
  assert.equal(byFile["/src/main.ts"], 3);
  assert.ok(edits.files.every((f) => f.edits.every((e) => e.newText === "welcome")));
  const { readFileSync } = await import("node:fs");
  assert.match(readFileSync(`${root}/src/greet.ts`, "utf8"), /function greet\(/);
});

test("problems: the planted type error of a file opened in this run, and coverage said", async () => {
  const problems = value(await intel.problems());
  const errors = problems.filter((p) => p.severity === "error");
  assert.deepEqual(
    errors.map((p) => `${p.path}:${p.line} ${p.code}`),
    ["/src/main.ts:2 2322"],
  );
  assert.match(intel.problemsScope!(), /only the files opened or changed in this task/);
});

test("an ignored file and a secret file are never given to the server", async () => {
  const ignored = await intel.documentSymbols("/src/ignored.ts");
  assert.ok(isAnswerError(ignored), "ignored file refused");
  const secret = await intel.hover({ path: "/src/secret.ts", line: 2, column: 14 });
  assert.ok(isAnswerError(secret) && /secrets/.test(secret.error), "secret file refused");
  // Both hold a type error: had either been opened in the server, its diagnostics would be here.
  const problems = value(await intel.problems());
  assert.deepEqual(
    problems.filter((p) => p.path === "/src/ignored.ts" || p.path === "/src/secret.ts"),
    [],
  );
});

test("a file the agent changed is covered by problems, and the fix clears it", async () => {
  const { writeFileSync } = await import("node:fs");
  writeFileSync(
    `${root}/src/main.ts`,
    `import { greet } from "./greet";\nconst count: string = greet("a");\nconsole.log(greet("b"), count);\n`,
  );
  intel.touched("/src/main.ts");
  const problems = value(await intel.problems());
  assert.deepEqual(
    problems.filter((p) => p.severity === "error"),
    [],
  );
});

test("stopped: no process of the server is left (by pid and start time)", async () => {
  const before: ProcessRef[] = intel.processes();
  assert.ok(before.length > 0);
  await intel.stop();
  assert.deepEqual(alive(before), []);
  assert.deepEqual(intel.processes(), []);
  const late = await intel.hover({ path: "/src/main.ts", line: 3, column: 13 });
  assert.ok(isAnswerError(late), "no answers after the task ended");
});
