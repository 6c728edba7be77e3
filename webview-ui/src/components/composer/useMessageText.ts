import { useEffect, useLayoutEffect, useRef, useState } from "react";

/**
 * The message box's text and caret. The caret goes where it is asked once the new text is in the
 * DOM, set in the same commit (not in a later frame), so a key pressed right after a recall sees
 * the caret where it belongs.
 */
export function useMessageText(fill: { text: string; seq: number } | undefined, focusSeq: number) {
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  const caretAfterRender = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (caretAfterRender.current === null) return;
    box.current?.setSelectionRange(caretAfterRender.current, caretAfterRender.current);
    caretAfterRender.current = null;
  });
  // Edit and resend: the message's text comes back to be changed, the caret at its end.
  useEffect(() => {
    if (!fill) return;
    setText(fill.text);
    caretAfterRender.current = fill.text.length;
    box.current?.focus();
  }, [fill?.seq]);
  // A command brought the person here (Add Selection to Chat, Focus Chat): the caret goes to the box.
  useEffect(() => {
    if (focusSeq > 0) box.current?.focus();
  }, [focusSeq]);
  return {
    text,
    setText,
    box,
    /** New text, the caret at `caret` once it is shown. */
    setTextAt(value: string, caret: number) {
      setText(value);
      caretAfterRender.current = caret;
    },
  };
}

export type MessageText = ReturnType<typeof useMessageText>;
