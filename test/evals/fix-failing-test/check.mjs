import { execFileSync } from "node:child_process";
import { expect, unchanged } from "../checks.mjs";

unchanged("test/run.js", "package.json");
try {
  execFileSync(process.execPath, ["test/run.js"], { encoding: "utf8" });
} catch (error) {
  expect(false, `the tests still fail: ${error.stdout}`);
}
