import type { QuestionAnswer, QuestionAsker, QuestionRequest } from "../../core";

/**
 * The `ask_user` questions of one run waiting for the person's answer on their chat card, by
 * the core's call id. A cancelled run settles its question as unanswered.
 */
export class QuestionDesk implements QuestionAsker {
  private readonly waiting = new Map<string, (answer: QuestionAnswer) => void>();

  ask(request: QuestionRequest, signal: AbortSignal): Promise<QuestionAnswer> {
    if (signal.aborted) return Promise.resolve({ unanswered: "The task was cancelled." });
    return new Promise((resolve) => {
      const settle = (answer: QuestionAnswer) => {
        signal.removeEventListener("abort", onAbort);
        this.waiting.delete(request.toolCallId);
        resolve(answer);
      };
      const onAbort = () => settle({ unanswered: "The task was cancelled." });
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(request.toolCallId, settle);
    });
  }

  /** The person answered the card of call `toolCallId`; false when nothing waits under it. */
  answer(toolCallId: string, answer: string): boolean {
    const settle = this.waiting.get(toolCallId);
    if (!settle) return false;
    settle({ answer });
    return true;
  }
}
