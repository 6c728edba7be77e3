import { useEffect, useRef, useState } from "react";
import type { MentionResults } from "../../state/chatReducer";
import { postToHost } from "../../vscodeApi";
import type { MessageText } from "./useMessageText";

interface Mention {
  start: number;
  query: string;
  requestId: number;
}

/** A file, folder or resource the `@` picker offers. */
export interface MentionOption {
  path: string;
  isDir?: boolean;
  resource?: { server: string; name: string };
  special?: "problems";
}

const MENTION_BEFORE_CARET = /(^|\s)@([^\s@]*)$/;
/** The `@problems` pick: the workspace's errors and warnings as a chip. */
const PROBLEMS_OPTION = { path: "@problems", special: "problems" as const };

/**
 * The `@` mention picker's state: open while an `@word` is before the caret; the host is asked
 * for matching files a moment after the query stops changing, and a pick replaces the `@word`.
 */
export function useMentionPicker(mentions: MentionResults | null, { text, setTextAt }: MessageText) {
  const [mention, setMention] = useState<Mention | null>(null);
  const [active, setActive] = useState(0);
  const nextRequest = useRef(1);

  const found = mention && mentions?.requestId === mention.requestId ? mentions.files.slice(0, 50) : [];
  const offerProblems =
    mention !== null && mention.query.length <= "problems".length && "problems".startsWith(mention.query.toLowerCase());
  const items: MentionOption[] = offerProblems ? [PROBLEMS_OPTION, ...found] : found;

  // Ask the host for matching files a moment after the query stops changing.
  useEffect(() => {
    if (!mention) return;
    const timer = setTimeout(
      () => postToHost({ type: "searchFiles", requestId: mention.requestId, query: mention.query.slice(0, 500) }),
      60,
    );
    return () => clearTimeout(timer);
  }, [mention]);

  return {
    open: mention !== null,
    items,
    active,
    loading: mention !== null && mentions?.requestId !== mention.requestId,
    close: () => setMention(null),
    /** Moves the highlight down (1) or up (-1), round the list. */
    move(step: 1 | -1) {
      if (items.length) setActive((active + (step === 1 ? 1 : items.length - 1)) % items.length);
    },
    /** Follows the text and the caret. */
    update(value: string, caret: number) {
      const match = MENTION_BEFORE_CARET.exec(value.slice(0, caret));
      if (!match) return setMention(null);
      const query = match[2] ?? "";
      const start = caret - query.length - 1;
      if (mention && mention.start === start && mention.query === query) return;
      setMention({ start, query, requestId: nextRequest.current++ });
      setActive(0);
    },
    pick(index: number) {
      const file = items[index];
      if (!mention || !file) return;
      const end = mention.start + 1 + mention.query.length;
      if (file.special === "problems") {
        // Not text: the host adds the problems as a chip, and the `@…` typed goes.
        setTextAt(text.slice(0, mention.start) + text.slice(end), mention.start);
        setMention(null);
        postToHost({ type: "attachProblems" });
        return;
      }
      const inserted = `@${file.path} `;
      setTextAt(text.slice(0, mention.start) + inserted + text.slice(end), mention.start + inserted.length);
      setMention(null);
    },
  };
}

export type MentionPickerState = ReturnType<typeof useMentionPicker>;
