import type { ChatMessage } from "../model/types";
import type { Tool } from "../tools/tool";
import { ASKS_FOR_TESTS, namedTestCommand, runsTests } from "../tools/testCommands";
import type { Middleware } from "./types";

/**
 * An answer that comes before any test ran, when the person asked for tests to run or pass, is
 * sent back once: run them, read the failures, fix, then answer. Small models declare victory
 * without running anything; one reminder costs a turn, a wrong "done" costs the task. Never in
 * Plan mode, a subagent, or a run that cannot execute commands.
 */
export function testsBeforeAnswerMiddleware(tools: () => ReadonlyMap<string, Tool>): Middleware {
  const reminded = new WeakSet<object>();
  // Where the person's request is: the last user message when the run first calls the model (later
  // user messages may be continuations written by middleware, such as a Stop hook's reason).
  const request = new WeakMap<object, ChatMessage | undefined>();
  return {
    name: "testsBeforeAnswer",
    beforeModel(ctx) {
      if (!request.has(ctx.state))
        request.set(
          ctx.state,
          ctx.state.messages.findLast((m) => m.role === "user"),
        );
    },
    beforeFinish(ctx) {
      if (
        ctx.state.mode === "plan" ||
        ctx.subagentType !== undefined ||
        !tools().has("execute") ||
        reminded.has(ctx.state)
      )
        return undefined;
      const messages = ctx.state.messages;
      const asked = request.get(ctx.state);
      // Gone from the history (summarized away): nothing to hold the answer to.
      const askedAt = asked ? messages.indexOf(asked) : -1;
      if (askedAt < 0 || asked?.role !== "user" || !ASKS_FOR_TESTS.test(asked.content)) return undefined;
      const ranTests = messages
        .slice(askedAt + 1)
        .some(
          (m) =>
            m.role === "assistant" &&
            m.toolCalls?.some(
              (c) => c.name === "run_tests" || (c.name === "execute" && runsTests(commandOf(c.arguments))),
            ),
        );
      if (ranTests) return undefined;
      reminded.add(ctx.state);
      const command = namedTestCommand(asked.content);
      const how = command
        ? `\`${command}\` with execute`
        : tools().has("run_tests")
          ? "them with run_tests"
          : "the tests with execute";
      return {
        text: `You were asked to make the tests pass, but no test has been run in this task. Run ${how}, read the failures, fix the code, and answer only when they pass (or say why they cannot).`,
        note: "The answer came before any test was run: the agent was asked to run them first.",
      };
    },
  };
}

function commandOf(rawArguments: string): string {
  try {
    const parsed: unknown = JSON.parse(rawArguments);
    return typeof parsed === "object" &&
      parsed !== null &&
      typeof (parsed as { command?: unknown }).command === "string"
      ? (parsed as { command: string }).command
      : "";
  } catch {
    return "";
  }
}
