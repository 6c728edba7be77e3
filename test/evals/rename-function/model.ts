// A competent model renaming across files: find every use, read those files, replace in each
// (replace_all), check nothing is left, run the tests, report.
import { after, call, expectText, resultOf, type ScenarioScript } from "../scripted";

const FILES = ["/README.md", "/src/cart.js", "/src/checkout.js", "/src/report.js", "/test/run.js"];

const script: ScenarioScript = {
  wire: "openai",
  turns: [
    {
      text: "Finding every use of calcTotal.",
      toolCalls: [call("grep", { pattern: "calcTotal", output_mode: "content" })],
    },
    after((_, request) => {
      const found = resultOf(request, "grep").text;
      for (const file of FILES) expectText("grep", found, new RegExp(file.replace(/[.]/g, "\\.")));
      return {
        text: "Five files use it. Reading them before editing.",
        toolCalls: FILES.map((file) => call("read_file", { file_path: file })),
      };
    }),
    after(() => ({
      toolCalls: FILES.map((file) =>
        call("edit_file", { file_path: file, old_string: "calcTotal", new_string: "computeTotal", replace_all: true }),
      ),
    })),
    after((results) => {
      if (results.length !== FILES.length) throw new Error("scripted model: expected five edit results");
      for (const r of results) expectText("rename", r.text, /^Edited/);
      return {
        text: "Checking that nothing is left, and running the tests.",
        toolCalls: [call("grep", { pattern: "calcTotal" }), call("execute", { command: "npm test" })],
      };
    }),
    after((_, request) => {
      expectText("grep after", resultOf(request, "grep").text, /[Nn]o (matches|files)/);
      expectText("tests", resultOf(request, "execute").text, /5 passed, 0 failed[\s\S]*\[Exit code: 0\]/);
      return {
        text: "Renamed `calcTotal` to `computeTotal` in its definition and export (`src/cart.js`), its callers (`summary` in `src/cart.js`, `src/checkout.js`, both uses in `src/report.js`), the tests and the README. No `calcTotal` is left, and `npm test` passes (5 passed, 0 failed).",
      };
    }),
  ],
};
export default script;
