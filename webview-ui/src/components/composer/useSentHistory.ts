import { useRef, useState } from "react";
import type { MessageText } from "./useMessageText";

/**
 * The messages sent earlier, for Up/Down: the host's list, then those sent from this box that it
 * does not have yet. While one is recalled, the draft that was being written is kept to go back to.
 */
export function useSentHistory(sent: string[], { setTextAt }: MessageText) {
  const [recall, setRecall] = useState<{ index: number; draft: string } | null>(null);
  const ownSent = useRef<string[]>([]);
  const history = [...sent, ...ownSent.current.filter((t) => !sent.includes(t))];

  const recallAt = (index: number, draft: string) => {
    const value = index >= history.length ? draft : (history[index] ?? "");
    setRecall(index >= history.length ? null : { index, draft });
    setTextAt(value, value.length);
  };

  return {
    /** Writing leaves the recalled message: it is a draft again. */
    forget: () => setRecall(null),
    /** A message was sent from this box. */
    remember(message: string) {
      if (message && history[history.length - 1] !== message) ownSent.current.push(message);
    },
    /** Up: the message before the one shown (when the box is empty or shows a recalled one). Says whether it moved. */
    back(text: string): boolean {
      if (!(text === "" || recall)) return false;
      const index = (recall?.index ?? history.length) - 1;
      if (index < 0) return false;
      recallAt(index, recall?.draft ?? text);
      return true;
    },
    /** Down: the next message, past the last one the draft. Says whether it moved. */
    forward(): boolean {
      if (!recall) return false;
      recallAt(recall.index + 1, recall.draft);
      return true;
    },
  };
}

export type SentHistory = ReturnType<typeof useSentHistory>;
