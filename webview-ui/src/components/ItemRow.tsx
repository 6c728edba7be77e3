import type { ReactNode } from "react";

interface Props {
  /** The codicon's name (codicon-NAME) before the name. */
  icon: string;
  name: string;
  /** The name's tooltip. */
  title: string;
  /** What is said of the item after its name. */
  meta: ReactNode;
  /** Its buttons. */
  children: ReactNode;
}

/** One row of the side lists (MCP servers, memories): an icon, the name, what it is, and its buttons. */
export function ItemRow({ icon, name, title, meta, children }: Props) {
  return (
    <div className="mcp-row">
      <span className={`codicon codicon-${icon}`} aria-hidden="true" />
      <span className="mcp-name" title={title}>
        {name}
      </span>
      <span className="mcp-meta">{meta}</span>
      {children}
    </div>
  );
}
