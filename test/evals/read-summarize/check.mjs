import { readdirSync } from "node:fs";
import path from "node:path";
import { answer, expect, unchanged } from "../checks.mjs";

const text = answer();
expect(/\b3\b|three/i.test(text) && /retr/i.test(text), "the answer does not give the default of 3 retries");
expect(/\b200\s?ms/i.test(text), "the answer does not give the 200 ms base delay");
expect(/doubl|exponential|2\^|× ?2|\* ?2/i.test(text), "the answer does not say the wait doubles");
expect(/5\s?s\b|5,?000\s?ms|5 seconds/i.test(text), "the answer does not give the 5 s cap");
expect(
  /5\d\d|5xx|server error/i.test(text) && /429/.test(text),
  "the answer does not say which failures are retried (5xx, 429, network)",
);
const scenarioFiles = readdirSync(path.join(process.env.FATHOM_EVAL_SCENARIO, "workspace"), {
  recursive: true,
  withFileTypes: true,
}).filter((d) => d.isFile());
unchanged(
  ...scenarioFiles.map((d) =>
    path.relative(path.join(process.env.FATHOM_EVAL_SCENARIO, "workspace"), path.join(d.parentPath, d.name)),
  ),
);
const now = readdirSync(".", { recursive: true }).length;
expect(
  now === readdirSync(path.join(process.env.FATHOM_EVAL_SCENARIO, "workspace"), { recursive: true }).length,
  "files were added",
);
