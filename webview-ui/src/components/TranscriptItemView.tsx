import { memo } from "react";
import type { TranscriptItem } from "../../../src/protocol";
import { AssistantMessage } from "./AssistantMessage";
import { NoticeView } from "./NoticeView";
import { ToolCard } from "./ToolCard";
import { UserMessage } from "./UserMessage";

/** One transcript entry; memoized on the item object, which the reducer replaces on change. */
export const TranscriptItemView = memo(function TranscriptItemView({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case "user":
      return <UserMessage item={item} />;
    case "assistant":
      return <AssistantMessage item={item} />;
    case "notice":
      return <NoticeView item={item} />;
    case "tool":
      return <ToolCard item={item} />;
  }
});
