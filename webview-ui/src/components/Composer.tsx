import { useState, type KeyboardEvent } from "react";

/** The message box: Enter sends, Shift+Enter starts a new line. */
export function Composer({ onSend }: { onSend: (text: string) => void }) {
  const [text, setText] = useState("");
  const canSend = text.trim().length > 0;

  const send = () => {
    if (!canSend) return;
    onSend(text);
    setText("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        aria-label="Message"
        placeholder="Ask Fathom to do something… (Enter to send, Shift+Enter for a new line)"
        rows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="primary" disabled={!canSend} title="Send (Enter)">
        <span className="codicon codicon-send" aria-hidden="true" />
        Send
      </button>
    </form>
  );
}
