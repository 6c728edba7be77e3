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
  const atBottomRef = useRef(true);
  const scroller = useRef<HTMLElement | null>(null);
  const listHeight = useRef(0);

  const onAtBottom = useCallback((bottom: boolean) => {
    atBottomRef.current = bottom;
    setAtBottom(bottom);
  }, []);
  // Streaming text grows the last item without adding one: keep following it, but only if the
  // view was at the end before it grew (not when items above were measured as the person
  // scrolled up).
  const onHeightChanged = useCallback((height: number) => {
    const grew = Math.max(0, height - listHeight.current);
    listHeight.current = height;
    const el = scroller.current;
    if (!el || !atBottomRef.current) return;
    const distanceBefore = el.scrollHeight - grew - el.scrollTop - el.clientHeight;
    if (distanceBefore < 48) list.current?.scrollToIndex({ index: "LAST", align: "end" });
  }, []);
  const setScroller = useCallback((el: HTMLElement | Window | null) => {
    scroller.current = el instanceof HTMLElement ? el : null;
  }, []);
  const jump = useCallback(() => {
    atBottomRef.current = true;
    list.current?.scrollToIndex({ index: "LAST", align: "end" });
    setAtBottom(true);
  }, []);
  useEffect(() => onFollowRequest(jump), [jump]);

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
        followOutput={(bottom) => (bottom && atBottomRef.current ? "auto" : false)}
        atBottomStateChange={onAtBottom}
        atBottomThreshold={48}
        totalListHeightChanged={onHeightChanged}
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
