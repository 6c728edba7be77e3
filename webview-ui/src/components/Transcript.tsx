import type { TranscriptMessage } from "../../../src/protocol";
import { Markdown } from "./Markdown";

export function Transcript({ messages }: { messages: TranscriptMessage[] }) {
  if (messages.length === 0) {
    return (
      <div className="empty">
        <p>Describe a change, ask about the code, or have Fathom run your tests.</p>
      </div>
    );
  }
  return (
    <ol className="transcript" aria-label="Conversation">
      {messages.map((message) => (
        <li key={message.id} className={`message ${message.role}`}>
          <span className="author">{message.role === "user" ? "You" : "Fathom"}</span>
          {message.role === "user" ? <p className="user-text">{message.text}</p> : <Markdown text={message.text} />}
        </li>
      ))}
    </ol>
  );
}
