/**
 * The model asks the person a question (`ask_user`). The core asks; the host (a card in the
 * chat), the CLI (the terminal) or a test answers, like the approval gate.
 */

export interface QuestionRequest {
  toolCallId: string;
  question: string;
  /** 2–6 answers to pick from; empty when only free text is asked for. */
  choices: string[];
  /** The person may type an answer of their own. */
  allowFreeText: boolean;
  /** Which task asks, where several run at once (set by the host). */
  task?: { id: string; title: string };
}

/** The person's answer, or why no one answered (the model then decides for itself). */
export type QuestionAnswer = { answer: string } | { unanswered: string };

export interface QuestionAsker {
  /** Must settle (as unanswered) when `signal` aborts. */
  ask(request: QuestionRequest, signal: AbortSignal): Promise<QuestionAnswer>;
}

/** The tool result when nobody can answer (no terminal, `--yes`, a subagent). */
export const NO_ONE_CAN_ANSWER =
  "No one can answer: nobody is there to reply. Decide yourself, go on, and say in your answer what you assumed.";

/** An asker for unattended runs: every question is answered with NO_ONE_CAN_ANSWER. */
export const noOneToAsk: QuestionAsker = { ask: async () => ({ unanswered: NO_ONE_CAN_ANSWER }) };
