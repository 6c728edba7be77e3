import { useState } from "react";
import type { TodoItem } from "../../../src/protocol";

const STATUS = {
  pending: { icon: "circle-large-outline", text: "Pending" },
  in_progress: { icon: "arrow-circle-right", text: "In progress" },
  completed: { icon: "pass-filled", text: "Done" },
} as const;

/** The agent's plan, pinned above the transcript: each item's status as icon and word. */
export function TodoList({ todos }: { todos: TodoItem[] }) {
  const [open, setOpen] = useState(true);
  if (todos.length === 0) return null;
  const done = todos.filter((todo) => todo.status === "completed").length;
  const current = todos.find((todo) => todo.status === "in_progress");
  return (
    <section className="todos" aria-labelledby="todos-heading">
      <h2 className="todos-heading" id="todos-heading">
        <button
          type="button"
          className="todos-toggle"
          aria-expanded={open}
          aria-controls="todos-list"
          onClick={() => setOpen(!open)}
        >
          <span className={`codicon codicon-chevron-${open ? "down" : "right"}`} aria-hidden="true" />
          <span className="codicon codicon-checklist" aria-hidden="true" />
          Todos
          <span className="todos-progress">
            {done} of {todos.length} done
          </span>
          {!open && current ? <span className="todos-current">: {current.content}</span> : null}
        </button>
      </h2>
      {open ? (
        <ul className="todos-list" id="todos-list" aria-label="Todos">
          {todos.map((todo, index) => {
            const status = STATUS[todo.status];
            return (
              <li key={index} className={`todo ${todo.status}`}>
                <span className={`codicon codicon-${status.icon}`} aria-hidden="true" />
                <span className="todo-content">{todo.content}</span>
                <span className="todo-status">{status.text}</span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
