import { useState } from "react";
import type { QuestionView } from "../../../src/protocol";
import { requestFollow } from "../lib/follow";
import { useRemembered } from "../state/remembered";
import { postToHost } from "../vscodeApi";

/** The model's question: a button per choice and, when allowed, a field for an answer of one's own. */
export function QuestionCard({
  toolCallId,
  question,
  waiting,
}: {
  toolCallId: string;
  question: QuestionView;
  waiting: boolean;
}) {
  const [draft, setDraft] = useRemembered(`answer:${toolCallId}`, "");
  const [sent, setSent] = useState(false);
  const fieldId = `answer-${toolCallId}`;
  const answer = (text: string) => {
    if (sent || !text.trim()) return;
    setSent(true);
    requestFollow();
    postToHost({ type: "answerQuestion", toolCallId, answer: text.trim().slice(0, 10_000) });
  };
  return (
    <div className="question-card" role="group" aria-label="Question from Fathom">
      <p className="question-text">
        <span className="codicon codicon-question" aria-hidden="true" /> {question.text}
      </p>
      {question.answer !== undefined ? (
        <p className="question-answer">Your answer: {question.answer}</p>
      ) : waiting ? (
        <>
          {question.choices.length ? (
            <div className="question-choices">
              {question.choices.map((choice) => (
                <button
                  key={choice}
                  type="button"
                  className="button secondary"
                  disabled={sent}
                  onClick={() => answer(choice)}
                >
                  {choice}
                </button>
              ))}
            </div>
          ) : null}
          {question.allowFreeText ? (
            <form
              className="question-free"
              onSubmit={(event) => {
                event.preventDefault();
                answer(draft);
              }}
            >
              <label htmlFor={fieldId} className="visually-hidden">
                Your answer
              </label>
              <input
                id={fieldId}
                className="text-input"
                placeholder={question.choices.length ? "Or type your own answer…" : "Your answer…"}
                value={draft}
                disabled={sent}
                onChange={(event) => setDraft(event.target.value)}
              />
              <button type="submit" className="button primary" disabled={sent || !draft.trim()}>
                Answer
              </button>
            </form>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
