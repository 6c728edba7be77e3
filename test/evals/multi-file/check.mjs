import { execFileSync } from "node:child_process";
import { expect, load, read } from "../checks.mjs";

const run = (...args) => execFileSync(process.execPath, ["src/cli.js", ...args], { encoding: "utf8" });
let parsed;
try {
  parsed = JSON.parse(run("--json", "data/sample.txt"));
} catch (error) {
  expect(false, `--json does not print JSON: ${error.message}`);
}
expect(
  JSON.stringify(parsed) ===
    JSON.stringify([
      { name: "apples", value: 3 },
      { name: "pears", value: 5 },
    ]),
  `--json printed ${JSON.stringify(parsed)}`,
);
expect(run("data/sample.txt").trim() === "apples: 3\npears: 5", "the plain output changed");
const format = load("src/format.js");
expect(
  typeof format.formatText === "function" &&
    Object.keys(format).some((k) => k !== "formatText" && typeof format[k] === "function"),
  "src/format.js does not export a JSON formatter next to formatText",
);
expect(read("README.md").includes("--json"), "README.md does not document --json");
