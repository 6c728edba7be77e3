import { z } from "zod";
import { defineTool } from "../tools/tool";
import type { Middleware } from "./types";
import { toolError } from "./types";
import type { Todo } from "../run/runState";

const TodosSchema = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().min(1).describe("What to do, imperative"),
        status: z.enum(["pending", "in_progress", "completed"]),
      }),
    )
    .describe("The whole list"),
});

export const writeTodosTool = defineTool({
  name: "write_todos",
  description: "Replace the todo list shown to the person. Send the whole list each time.",
  schema: TodosSchema,
  kind: "other",
  async run({ todos }) {
    const counts = { pending: 0, in_progress: 0, completed: 0 };
    for (const todo of todos) counts[todo.status]++;
    return {
      content: `Todo list updated: ${todos.length} items (${counts.completed} completed, ${counts.in_progress} in progress, ${counts.pending} pending).`,
      details: { todos },
    };
  },
});

const PROMPT = `# Todos
For a task of 3 or more steps, plan with write_todos and keep it current: one item in_progress at a time, mark items completed as soon as they are done. Skip it for simple tasks.`;

/** `write_todos`: the plan the person sees. Several calls in one turn are refused (which would win?). */
export function todosMiddleware(): Middleware {
  return {
    name: "todos",
    tools: [writeTodosTool],
    systemPrompt: () => PROMPT,
    async wrapToolCall(call, ctx, next) {
      if (call.name !== writeTodosTool.name) return next(call);
      const parallel = call.turn.filter((c) => c.name === writeTodosTool.name).length;
      if (parallel > 1) {
        return toolError(
          `Error: write_todos was called ${parallel} times in one turn. Call it once, with the whole list.`,
        );
      }
      const result = await next(call);
      if (!result.isError) {
        const todos = (call.args as { todos: Todo[] }).todos.map((t) => ({ content: t.content, status: t.status }));
        ctx.state.todos = todos;
        ctx.emit({ type: "todos_changed", todos });
      }
      return result;
    },
  };
}
