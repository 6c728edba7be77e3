import { revealInvisible } from "../lib/invisible";

/** "Running `npm test`" with the backticked part shown as code, and hidden characters shown. */
export function ToolTitle({ title }: { title: string }) {
  const parts = title.split("`");
  return (
    <span className="tool-title">
      {parts.map((part, index) =>
        index % 2 === 1 ? <code key={index}>{revealInvisible(part)}</code> : revealInvisible(part),
      )}
    </span>
  );
}
