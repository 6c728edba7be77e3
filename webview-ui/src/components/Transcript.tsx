import { useCallback, useEffect, useRef, useState } from "react";
import { Virtuoso, type VirtuosoHandle } from "react-virtuoso";
import type { TaskStatus, TranscriptItem } from "../../../src/protocol";
import { TranscriptItemView } from "./TranscriptItemView";
import { WorkingIndicator } from "./WorkingIndicator";
import { onFollowRequest } from "../lib/follow";

interface Props {
  items: TranscriptItem[];
  status: TaskStatus;
  /** Items added at the top since the list started (older items validated after first paint). */
  prepended: number;
}

/** Virtuoso keeps the view still when items are added at the top if this index drops by as many. */
const FIRST_INDEX = 1_000_000_000;

const itemKey = (_index: number, item: TranscriptItem) => item.id;
const itemContent = (_index: number, item: TranscriptItem) => (
  <div className="transcript-row">
    <TranscriptItemView item={item} />
  </div>
);

/**
 * The conversation, virtualized (only what is on screen is in the DOM). It follows new output
 * while the person is at the bottom, stops when they scroll up, and offers "Jump to latest".
 */
export function Transcript({ items, status, prepended }: Props) {
  const list = useRef<VirtuosoHandle>(null);
  const [atBottom, setAtBottom] = useState(true);
  // Following stops only when the person scrolls away themselves (wheel, touch, keys, the
  // scrollbar), never because cards above changed size while a task streamed.
  const userAway = useRef(false);
  const scroller = useRef<HTMLElement | null>(null);

  const distanceFromEnd = () => {
    const el = scroller.current;
    return el ? el.scrollHeight - el.scrollTop - el.clientHeight : 0;
  };
  const onAtBottom = useCallback((bottom: boolean) => {
    if (bottom) userAway.current = false;
    setAtBottom(bottom || !userAway.current);
  }, []);
  const follow = useCallback(() => {
    if (!userAway.current) list.current?.scrollToIndex({ index: "LAST", align: "end" });
  }, []);
  const jump = useCallback(() => {
    userAway.current = false;
    list.current?.scrollToIndex({ index: "LAST", align: "end" });
    setAtBottom(true);
  }, []);
  useEffect(() => onFollowRequest(jump), [jump]);

  const setScroller = useCallback((el: HTMLElement | Window | null) => {
    scroller.current = el instanceof HTMLElement ? el : null;
    if (!scroller.current) return;
    const target = scroller.current;
    // After the person's own scroll gesture, see where it left the view.
    const judge = () =>
      requestAnimationFrame(() => {
        userAway.current = distanceFromEnd() > 48;
        setAtBottom(!userAway.current);
      });
    const onKey = (event: KeyboardEvent) => {
      if (["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "].includes(event.key)) judge();
    };
    target.addEventListener("wheel", judge, { passive: true });
    target.addEventListener("touchmove", judge, { passive: true });
    target.addEventListener("pointerup", judge); // dragging the scrollbar
    target.addEventListener("keydown", onKey);
  }, []);

  const working = status === "running";
  return (
    <div className="transcript-wrap">
      <Virtuoso
        ref={list}
        scrollerRef={setScroller}
        className="transcript"
        role="region"
        aria-label="Conversation"
        tabIndex={0}
        data={items}
        firstItemIndex={FIRST_INDEX - prepended}
        computeItemKey={itemKey}
        itemContent={itemContent}
        initialTopMostItemIndex={{ index: "LAST", align: "end" }}
        followOutput={() => (userAway.current ? false : "auto")}
        atBottomStateChange={onAtBottom}
        atBottomThreshold={48}
        totalListHeightChanged={follow}
        increaseViewportBy={{ top: 400, bottom: 200 }}
        defaultItemHeight={90}
        components={{ Footer: working ? WorkingIndicator : undefined }}
      />
      {!atBottom ? (
        <button type="button" className="jump-latest" aria-label="Jump to latest" title="Jump to latest" onClick={jump}>
          <span className="codicon codicon-arrow-down" aria-hidden="true" />
        </button>
      ) : null}
    </div>
  );
}
