import { useEffect, useState } from "react";
import type { TranscriptMessage } from "../../src/protocol";
import { Composer } from "./components/Composer";
import { Transcript } from "./components/Transcript";
import { onHostMessage, postToHost } from "./vscodeApi";

export function App() {
  const [messages, setMessages] = useState<TranscriptMessage[]>([]);

  useEffect(() => {
    const unsubscribe = onHostMessage((message) => {
      switch (message.type) {
        case "transcript":
          setMessages(message.messages);
          return;
        case "appendMessage":
          setMessages((current) => [...current, message.message]);
          return;
      }
    });
    // The host holds the truth; ask for it on every (re)load.
    postToHost({ type: "ready" });
    return unsubscribe;
  }, []);

  return (
    <main className="app">
      <Transcript messages={messages} />
      <Composer onSend={(text) => postToHost({ type: "sendMessage", text })} />
    </main>
  );
}
