import { memo } from "react";
import type { TokensList } from "marked";
import { renderBlock } from "../lib/markdown";

interface Props {
  raw: string;
  tokens: TokensList;
}

/** One top-level markdown block; re-rendered only when its source text changes. */
export const MarkdownBlock = memo(
  function MarkdownBlock({ tokens }: Props) {
    return <div className="md-block" dangerouslySetInnerHTML={{ __html: renderBlock(tokens) }} />;
  },
  (before, after) => before.raw === after.raw,
);
