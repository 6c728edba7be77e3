// A competent model with a task of several steps: it writes a todo list, reads what it needs,
// works item by item (marking progress), runs the tests, and closes the list.
import { after, call, expectText, resultOf, type ScenarioScript } from "../scripted";

type Status = "pending" | "in_progress" | "completed";
const ITEMS = [
  "Validate input.name in create",
  "Validate input.id in update",
  "Validate input.id in remove",
  "Run npm test",
];
const todos = (...statuses: Status[]) =>
  call("write_todos", { todos: ITEMS.map((content, i) => ({ content, status: statuses[i] ?? "pending" })) });

const ID_CHECK =
  "  if (!Number.isInteger(input.id) || input.id < 1) {\n    throw new TypeError('input.id must be a positive integer');\n  }\n";

const script: ScenarioScript = {
  wire: "openai",
  turns: [
    {
      text: "Three handlers to change and a test run: planning it.",
      toolCalls: [
        todos("in_progress"),
        call("read_file", { file_path: "/src/handlers/create.js" }),
        call("read_file", { file_path: "/src/handlers/update.js" }),
        call("read_file", { file_path: "/src/handlers/remove.js" }),
        call("read_file", { file_path: "/test/run.js" }),
      ],
    },
    after((results) => {
      expectText(
        "reads",
        results.map((r) => r.text).join("\n"),
        /function create\(store, input\)[\s\S]*function update\(store, input\)[\s\S]*function remove\(store, input\)/,
      );
      return {
        toolCalls: [
          call("edit_file", {
            file_path: "/src/handlers/create.js",
            old_string: "function create(store, input) {\n",
            new_string:
              "function create(store, input) {\n  if (typeof input.name !== 'string' || input.name === '') {\n    throw new TypeError('input.name must be a non-empty string');\n  }\n",
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("create", resultOf(request, "edit_file").text, /^Edited/);
      return {
        toolCalls: [
          todos("completed", "in_progress"),
          call("edit_file", {
            file_path: "/src/handlers/update.js",
            old_string: "function update(store, input) {\n",
            new_string: `function update(store, input) {\n${ID_CHECK}`,
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("update", resultOf(request, "edit_file").text, /^Edited/);
      return {
        toolCalls: [
          todos("completed", "completed", "in_progress"),
          call("edit_file", {
            file_path: "/src/handlers/remove.js",
            old_string: "function remove(store, input) {\n",
            new_string: `function remove(store, input) {\n${ID_CHECK}`,
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("remove", resultOf(request, "edit_file").text, /^Edited/);
      return {
        toolCalls: [
          todos("completed", "completed", "completed", "in_progress"),
          call("execute", { command: "npm test" }),
        ],
      };
    }),
    after((results) => {
      expectText(
        "npm test",
        results.find((r) => r.name === "execute")!.text,
        /9 passed, 0 failed[\s\S]*\[Exit code: 0\]/,
      );
      return { toolCalls: [todos("completed", "completed", "completed", "completed")] };
    }),
    {
      text: "All three handlers validate their input now and throw a `TypeError` on bad input:\n\n- `create`: `input.name` must be a non-empty string.\n- `update` and `remove`: `input.id` must be a positive integer (`Number.isInteger(id) && id >= 1`).\n\nThe tests were not changed; `npm test` passes (9 passed, 0 failed).",
    },
  ],
};
export default script;
