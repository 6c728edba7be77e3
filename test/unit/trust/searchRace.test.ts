// Issue 11, finding 7: while a folder inside the workspace is swapped for a link to one outside
// again and again, ls, grep and glob never return a name or a line from outside (read_file was
// already safe). A child process swaps the folder as fast as it can while the tools run.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { makeSandbox } from "../backends/helpers";

const SWAPPER = `
const fs = require("node:fs");
const [dir] = process.argv.slice(1);
const end = Date.now() + Number(process.argv[2]);
while (Date.now() < end) {
  try {
    fs.renameSync(dir + "/sub", dir + "/sub.dir");
    fs.renameSync(dir + "/sub.link", dir + "/sub");
    fs.renameSync(dir + "/sub", dir + "/sub.link");
    fs.renameSync(dir + "/sub.dir", dir + "/sub");
  } catch {}
}
`;

describe("ls, grep and glob under a folder-swap race", { skip: process.platform === "win32" }, () => {
  for (const rg of [true, false]) {
    it(`never return names or lines from outside (${rg ? "ripgrep" : "built-in search"})`, async () => {
      const s = makeSandbox({ "sub/inside.txt": "needle inside\n", "top.txt": "needle top\n" });
      after(s.cleanup);
      writeFileSync(path.join(s.outside, "outside-only.txt"), "needle CANARY-SECRET\n");
      mkdirSync(path.join(s.outside, "deeper"));
      writeFileSync(path.join(s.outside, "deeper", "outside-deep.txt"), "needle CANARY-SECRET\n");
      symlinkSync(s.outside, path.join(s.root, "sub.link"));
      const b = new FilesystemBackend({ rootDir: s.root, ...(rg ? {} : { ripgrepPath: null }) });
      const swapper = spawn(process.execPath, ["-e", SWAPPER, s.root, "2500"], { stdio: "ignore" });
      const done = new Promise((r) => swapper.on("close", r));
      const seen: string[] = [];
      let calls = 0;
      const deadline = Date.now() + 2000;
      while (Date.now() < deadline) {
        const [l, g, gl] = await Promise.all([b.ls("/sub"), b.grep("needle", "/"), b.glob("**/*.txt")]);
        calls++;
        seen.push(JSON.stringify(l), JSON.stringify(g), JSON.stringify(gl));
      }
      await done;
      const leaks = seen.filter((x) => /CANARY|outside-only|outside-deep/.test(x));
      assert.equal(leaks.length, 0, `${leaks.length} leaks in ${calls} rounds, e.g. ${leaks[0]}`);
      assert.ok(calls > 10, `only ${calls} rounds ran`);
      // And when nothing swaps, everything inside is found.
      const g = await b.grep("needle", "/");
      assert.deepEqual(g.matches?.map((m) => m.path).sort(), ["/sub/inside.txt", "/top.txt"]);
    });
  }
});
