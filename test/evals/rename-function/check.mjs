import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, load } from "../checks.mjs";

const files = readdirSync(".", { recursive: true })
  .map(String)
  .filter((f) => /\.(js|md)$/.test(f) && !f.includes("node_modules"));
const left = files.filter((f) => readFileSync(path.join(".", f), "utf8").includes("calcTotal"));
expect(left.length === 0, `calcTotal is still in ${left.join(", ")}`);
expect(typeof load("src/cart.js").computeTotal === "function", "src/cart.js does not export computeTotal");
try {
  execFileSync(process.execPath, ["test/run.js"], { encoding: "utf8" });
} catch (error) {
  expect(false, `the tests fail: ${error.stdout}`);
}
