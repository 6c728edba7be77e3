import { z } from "zod";
import { defineTool } from "../tools/tool";
import { NO_ONE_CAN_ANSWER, type QuestionAsker } from "../question";
import { runContextOf, toolError, type Middleware } from "./types";

export const ASK_USER = "ask_user";
/** Questions in a row (no other tool between them) before more are refused: a model stuck asking. */
export const MAX_QUESTIONS_IN_A_ROW = 5;
const MAX_QUESTION_CHARS = 2_000;
const MAX_CHOICE_CHARS = 200;
const MAX_ANSWER_CHARS = 10_000;

const AskUserSchema = z
  .object({
    question: z.string().trim().min(1).max(MAX_QUESTION_CHARS).describe("One clear question"),
    choices: z
      .array(z.string().trim().min(1).max(MAX_CHOICE_CHARS))
      .min(2)
      .max(6)
      .optional()
      .describe("Short answers to pick from"),
    allow_free_text: z.boolean().optional().describe("The person may type their own answer (default true)"),
  })
  .refine((a) => a.choices !== undefined || a.allow_free_text !== false, {
    message: "give choices, or allow free text",
    path: ["choices"],
  });

/**
 * `ask_user`: the model asks the person instead of guessing. The run waits for the answer (no
 * step is taken meanwhile); a subagent's question, or one nobody can answer, gets
 * NO_ONE_CAN_ANSWER. Questions in a row past MAX_QUESTIONS_IN_A_ROW are refused.
 */
export function askUserMiddleware(asker: QuestionAsker): Middleware {
  let inARow = 0;
  const tool = defineTool({
    name: ASK_USER,
    description:
      "Ask the person one question when the request is ambiguous and the answer changes what you do (a choice between approaches, a missing fact), rather than guess; never what you can find out yourself. Offer 2-6 choices when you can. Returns their answer.",
    schema: AskUserSchema,
    kind: "other",
    async run(args, ctx) {
      const run = runContextOf(ctx);
      if (run?.subagentType !== undefined) return { content: NO_ONE_CAN_ANSWER, details: { unanswered: true } };
      const request = {
        toolCallId: ctx.toolCallId,
        question: args.question,
        choices: args.choices ?? [],
        allowFreeText: args.allow_free_text !== false,
      };
      run?.emit({ type: "question_asked", ...request });
      const reply = await asker.ask(request, ctx.signal);
      if ("unanswered" in reply) {
        run?.emit({ type: "question_answered", toolCallId: ctx.toolCallId, unanswered: reply.unanswered });
        return { content: reply.unanswered, details: { unanswered: true } };
      }
      const answer = reply.answer.slice(0, MAX_ANSWER_CHARS);
      run?.emit({ type: "question_answered", toolCallId: ctx.toolCallId, answer });
      return { content: `The person answered: ${answer}`, details: { answer } };
    },
  });
  return {
    name: "askUser",
    tools: [tool],
    systemPrompt() {
      inARow = 0; // a new run: the person has just written
      // When to ask is in the tool's description (issue 40: the first request is smaller without a section of its own).
      return undefined;
    },
    async wrapToolCall(call, ctx, next) {
      if (call.name !== ASK_USER) {
        inARow = 0;
        return next(call);
      }
      if (inARow >= MAX_QUESTIONS_IN_A_ROW) {
        return toolError(
          `Not asked: you have asked ${inARow} questions in a row. Decide the rest yourself, go on with the task, and say what you assumed.`,
        );
      }
      inARow++;
      return next(call);
    },
  };
}
