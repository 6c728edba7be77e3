// A competent model making a change across files: read what is involved (in one turn), add the
// formatter, wire the flag into the CLI, document it, try both outputs, report.
import { after, call, expectText, lastResults, resultOf, type ScenarioScript } from "../scripted";

const script: ScenarioScript = {
  wire: "anthropic",
  turns: [
    {
      text: "I'll read the CLI, the formatter, the reader and the README first.",
      toolCalls: [
        call("read_file", { file_path: "/src/cli.js" }),
        call("read_file", { file_path: "/src/format.js" }),
        call("read_file", { file_path: "/src/entries.js" }),
        call("read_file", { file_path: "/README.md" }),
      ],
    },
    after((results) => {
      expectText("reads", results.map((r) => r.text).join("\n"), /function formatText[\s\S]*value: Number\(value\)/);
      return {
        text: "Entries already carry numeric values, so the JSON formatter only has to serialize them. Adding it to src/format.js:",
        toolCalls: [
          call("edit_file", {
            file_path: "/src/format.js",
            old_string: "module.exports = { formatText };",
            new_string:
              "/** The entries as a JSON array of {name, value} objects. */\nfunction formatJson(entries) {\n  return JSON.stringify(entries.map(({ name, value }) => ({ name, value })), null, 2);\n}\n\nmodule.exports = { formatText, formatJson };",
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("format edit", resultOf(request, "edit_file").text, /^Edited/);
      return {
        text: "Now the flag in the CLI:",
        toolCalls: [
          call("edit_file", {
            file_path: "/src/cli.js",
            old_string: "const { formatText } = require('./format');",
            new_string: "const { formatText, formatJson } = require('./format');",
          }),
          call("edit_file", {
            file_path: "/src/cli.js",
            old_string:
              "  const file = argv[0];\n  if (!file) {\n    console.error('usage: node src/cli.js FILE');\n    return 2;\n  }\n  console.log(formatText(readEntries(file)));",
            new_string:
              "  const json = argv.includes('--json');\n  const file = argv.find((arg) => arg !== '--json');\n  if (!file) {\n    console.error('usage: node src/cli.js [--json] FILE');\n    return 2;\n  }\n  const entries = readEntries(file);\n  console.log(json ? formatJson(entries) : formatText(entries));",
          }),
        ],
      };
    }),
    after((results) => {
      for (const r of results) expectText("cli edit", r.text, /^Edited/);
      return {
        toolCalls: [
          call("edit_file", {
            file_path: "/README.md",
            old_string: "prints one `name: value` line per entry.",
            new_string:
              'prints one `name: value` line per entry. With `--json` it prints a JSON array of\n`{ "name": …, "value": … }` objects instead (values are numbers):\n\n```sh\nnode src/cli.js --json data/sample.txt\n```',
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("readme edit", resultOf(request, "edit_file").text, /^Edited/);
      return {
        text: "Trying both outputs:",
        toolCalls: [
          call("execute", { command: "node src/cli.js data/sample.txt && node src/cli.js --json data/sample.txt" }),
        ],
      };
    }),
    after((_, request) => {
      expectText(
        "try-out",
        lastResults(request)[0]!.text,
        /apples: 3\npears: 5\n\[\n {2}\{\n {4}"name": "apples",\n {4}"value": 3[\s\S]*\[Exit code: 0\]/,
      );
      return {
        text: 'Added `--json`:\n\n- `src/format.js`: `formatJson(entries)` next to `formatText`, printing a JSON array of `{name, value}` objects (values stay numbers).\n- `src/cli.js`: `--json` anywhere in the arguments picks it; the usage line mentions it.\n- `README.md`: documents the option with an example.\n\n`node src/cli.js --json data/sample.txt` prints `[{"name": "apples", "value": 3}, {"name": "pears", "value": 5}]` (indented), and the plain output is unchanged.',
      };
    }),
  ],
};
export default script;
