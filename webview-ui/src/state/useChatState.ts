import { useEffect, useState } from "react";
import { flushSync } from "react-dom";
import { onHostMessage, postToHost } from "../vscodeApi";
import { emptyView, reduce, type ChatAction, type ViewState } from "./chatReducer";
import { restoreOlder, type Restore } from "./restoreState";

/**
 * The chat as the host last described it. Host messages are applied in batches, one render per
 * animation frame, so a model streaming hundreds of tokens a second costs one render per frame,
 * not one per token. Asks the host for the whole state on every (re)load.
 */
/**
 * Messages the person waits on are rendered at once, not at the next frame: a whole state (the
 * first paint after a reload), chips (one message per command), an answer's first text (once per
 * answer), and the end of a step or of an answer (its last text came just before, in the same
 * batch). Streaming updates wait for a frame.
 */
function paintsNow(message: ChatAction): boolean {
  if (message.type === "state" || message.type === "attachments" || message.type === "status") return true;
  if (message.type === "itemAppended") return message.item.kind === "assistant";
  return message.type === "itemUpdated" && message.item.kind === "assistant" && !message.item.streaming;
}

export function useChatState(): ViewState {
  const [view, setView] = useState<ViewState>(emptyView);

  useEffect(() => {
    let pending: ChatAction[] = [];
    let restore: Restore | null = null;
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      if (frame) cancelAnimationFrame(frame);
      clearTimeout(timer);
      frame = 0;
      const batch = pending;
      pending = [];
      // Rendered now, inside this animation frame, so it is painted in this frame rather than
      // the next one (a plain update would render in a later task and miss it).
      flushSync(() => setView((current) => batch.reduce(reduce, current)));
      // The host holds an open diff's update back until the card is up (they share the window's thread).
      for (const m of batch) {
        const item = m.type === "itemUpdated" || m.type === "itemAppended" ? m.item : undefined;
        if (item?.kind === "tool" && item.status === "awaiting_approval" && item.proposal)
          postToHost({ type: "cardShown", toolCallId: item.id });
      }
    };
    const schedule = () => {
      if (frame) return;
      frame = requestAnimationFrame(flush);
      // Frames stop while the view is hidden; updates still land.
      timer = setTimeout(flush, 250);
    };
    const unsubscribe = onHostMessage((message, older) => {
      // Updates may touch older items of the last state: validate those first, in order.
      if (message.type === "state") restore?.cancel();
      else restore?.finishNow();
      restore = null;
      pending.push(message);
      if (message.type === "state" && older?.length) {
        const current: Restore = restoreOlder(older, (items) => {
          if (restore === current) restore = null;
          pending.push({ type: "olderItems", items });
          schedule();
        });
        restore = current;
      }
      if (paintsNow(message)) flush();
      else schedule();
    });
    postToHost({ type: "ready" });
    return () => {
      unsubscribe();
      restore?.cancel();
      if (frame) cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);

  return view;
}
