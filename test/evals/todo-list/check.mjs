import { execFileSync } from "node:child_process";
import { calls, expect, unchanged } from "../checks.mjs";

unchanged("test/run.js", "src/store.js");
try {
  execFileSync(process.execPath, ["test/run.js"], { encoding: "utf8" });
} catch (error) {
  expect(false, `the tests fail: ${error.stdout}`);
}
// Planned with a todo list, kept it up to date, and finished it.
const todos = calls("write_todos");
expect(todos.length >= 2, `the todo list was written ${todos.length} time(s): not planned, or not kept up to date`);
const last = todos.at(-1).args.todos;
expect(last.length >= 3, "the plan has fewer than 3 items");
expect(
  last.every((t) => t.status === "completed"),
  "the todo list was left unfinished",
);
