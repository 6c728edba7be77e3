// Issue 34: the release carries what the action's bundle loads at run time, and stops on
// anything it cannot account for (read from esbuild's metafile).
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
// @ts-expect-error: a build script in plain JavaScript (no declarations).
import { actionRuntimeFiles } from "../../../scripts/actionRuntimeFiles.mjs";

const ROOT = path.resolve(__dirname, "../../..");
const scratch = mkdtempSync(path.join(tmpdir(), "fathom-runtime-files-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

type Result = { files: { from: string; to: string; executable: boolean }[]; problems: string[] };
const output = (imports: { path: string; kind: string; external?: boolean }[]) => ({ "dist/action.js": { imports } });

test("the sandbox's helpers are shipped beside the bundle, executable; the Windows helper is not", () => {
  const inputs = { "node_modules/@anthropic-ai/sandbox-runtime/dist/index.js": {} };
  const { files, problems } = actionRuntimeFiles(
    { inputs, outputs: output([{ path: "node:fs", kind: "require-call", external: true }]) },
    ROOT,
  ) as Result;
  assert.deepEqual(problems, []);
  assert.deepEqual(files.map((f) => f.to).sort(), [
    "vendor/java-proxy-agent/srt-proxy-agent.jar",
    "vendor/seccomp/arm64/apply-seccomp",
    "vendor/seccomp/x64/apply-seccomp",
  ]);
  assert.ok(files.filter((f) => f.to.includes("seccomp")).every((f) => f.executable));
});

test("a require of a package the bundle does not hold stops the release, unless the code does without it", () => {
  const { problems } = actionRuntimeFiles(
    {
      inputs: {},
      outputs: output([
        { path: "left-pad/index.js", kind: "require-call", external: true },
        { path: "canvas", kind: "require-call", external: true },
        { path: "child_process", kind: "require-call", external: true },
      ]),
    },
    ROOT,
  ) as Result;
  assert.equal(problems.length, 1);
  assert.match(
    problems[0]!,
    /the bundle requires "left-pad\/index\.js" at run time \(require-call\), which a checkout of the release does not have/,
  );
});

test("a native file in a bundled package that no one decided about stops the release", () => {
  const pkg = path.join(scratch, "node_modules", "@x", "native");
  mkdirSync(path.join(pkg, "build"), { recursive: true });
  writeFileSync(path.join(pkg, "index.js"), "module.exports = 1;\n");
  writeFileSync(path.join(pkg, "build", "helper"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]));
  chmodSync(path.join(pkg, "build", "helper"), 0o755);
  writeFileSync(path.join(pkg, "README.md"), "text is not a payload\n");
  const { files, problems } = actionRuntimeFiles(
    { inputs: { "node_modules/@x/native/index.js": {}, "zod-locales:node_modules/zod": {} }, outputs: output([]) },
    scratch,
  ) as Result;
  assert.deepEqual(files, []);
  assert.equal(problems.length, 1);
  assert.match(
    problems[0]!,
    /the bundled package @x\/native carries build\/helper, a file its code may load beside itself at run time: decide whether the action needs it and list it in RUNTIME_PAYLOADS/,
  );
});
