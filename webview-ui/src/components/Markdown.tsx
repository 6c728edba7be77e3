import { memo, useMemo, type MouseEvent } from "react";
import { markdownBlocks } from "../lib/markdown";
import { MarkdownBlock } from "./MarkdownBlock";

async function copyCode(button: HTMLButtonElement): Promise<void> {
  const code = button.closest(".code-block")?.querySelector("code")?.textContent ?? "";
  try {
    await navigator.clipboard.writeText(code);
    button.setAttribute("aria-label", "Copied");
    button.firstElementChild?.classList.replace("codicon-copy", "codicon-check");
  } catch {
    button.setAttribute("aria-label", "Copy failed");
  }
  setTimeout(() => {
    button.setAttribute("aria-label", "Copy code");
    button.firstElementChild?.classList.replace("codicon-check", "codicon-copy");
  }, 1500);
}

/**
 * Model text as sanitized markdown. Each top-level block is rendered (and memoized) on its own,
 * so while a message streams only its last block is parsed again.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => markdownBlocks(text), [text]);
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const button = (event.target as Element).closest("button.copy-code");
    if (button instanceof HTMLButtonElement) void copyCode(button);
  };
  return (
    <div className="markdown" onClick={onClick}>
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} raw={block.raw} tokens={block.tokens} />
      ))}
    </div>
  );
});
