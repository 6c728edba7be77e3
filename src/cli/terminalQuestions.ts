import { createInterface } from "node:readline/promises";
import type { QuestionAnswer, QuestionAsker, QuestionRequest } from "../core/question";
import type { TerminalStreams } from "./terminalApprovalGate";
import { visibleText } from "./visibleText";

/**
 * `ask_user` at the terminal: the question, its choices numbered; the person types a number or
 * (when allowed) an answer of their own. Empty or invalid input asks again.
 */
export class TerminalQuestionAsker implements QuestionAsker {
  constructor(private readonly io: TerminalStreams) {}

  async ask(request: QuestionRequest, signal: AbortSignal): Promise<QuestionAnswer> {
    if (signal.aborted) return { unanswered: "The task was cancelled." };
    const { output } = this.io;
    const choices = request.choices.map((c, i) => `  ${i + 1}. ${visibleText(c)}`).join("\n");
    output.write(`\nThe agent asks: ${visibleText(request.question, "  ")}\n${choices ? `${choices}\n` : ""}`);
    const hint =
      request.choices.length === 0
        ? "Your answer: "
        : request.allowFreeText
          ? `Pick 1-${request.choices.length} or type your answer: `
          : `Pick 1-${request.choices.length}: `;
    const rl = createInterface({ input: this.io.input, output, terminal: this.io.input.isTTY === true });
    rl.on("SIGINT", () => this.io.onInterrupt());
    try {
      for (;;) {
        const reply = (await rl.question(hint, { signal })).trim();
        const picked = /^\d+$/.test(reply) ? request.choices[Number(reply) - 1] : undefined;
        if (picked !== undefined) return { answer: picked };
        if (reply && request.allowFreeText) return { answer: reply };
        output.write(
          request.choices.length
            ? `Please type a number from 1 to ${request.choices.length}${request.allowFreeText ? ", or your own answer" : ""}.\n`
            : "Please type an answer.\n",
        );
      }
    } catch {
      return { unanswered: "The task was cancelled." };
    } finally {
      rl.close();
    }
  }
}
