import type { ToolItem, TranscriptItem } from "./chat";

/**
 * Reading and replacing items of a transcript, where a `task` card nests its subagent's items.
 * Searches go newest first: that is where streaming happens.
 */

/** The item `id`, searching subagent activity too. */
export function findItem(items: readonly TranscriptItem[], id: string): TranscriptItem | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.id === id) return item;
    if (item.kind === "tool" && item.children?.length) {
      const found = findItem(item.children, id);
      if (found) return found;
    }
  }
  return undefined;
}

/** The tool card `itemId`, nested ones too. */
export function findToolItem(items: readonly TranscriptItem[], itemId: string): ToolItem | undefined {
  const stack = [...items];
  while (stack.length) {
    const item = stack.pop()!;
    if (item.kind === "tool") {
      if (item.id === itemId) return item;
      stack.push(...(item.children ?? []));
    }
  }
  return undefined;
}

/**
 * Returns `items` with the item `id` replaced by `update(item)`, nested ones too. Returns the
 * same array when the id is unknown, so a view holding it does not re-render.
 */
export function updateItem(
  items: TranscriptItem[],
  id: string,
  update: (item: TranscriptItem) => TranscriptItem,
): TranscriptItem[] {
  for (let i = items.length - 1; i >= 0; i -= 1) {
    const item = items[i]!;
    let next: TranscriptItem | undefined;
    if (item.id === id) next = update(item);
    else if (item.kind === "tool" && item.children?.length) {
      const children = updateItem(item.children, id, update);
      if (children !== item.children) next = { ...item, children };
    }
    if (next) {
      const copy = items.slice();
      copy[i] = next;
      return copy;
    }
  }
  return items;
}

/** Tool calls still open (streaming, running or waiting for the person), nested ones too. */
export function openToolItems(items: readonly TranscriptItem[], out: ToolItem[] = []): ToolItem[] {
  for (const item of items) {
    if (item.kind !== "tool") continue;
    if (item.status === "streaming" || item.status === "running" || item.status === "awaiting_approval") out.push(item);
    if (item.children?.length) openToolItems(item.children, out);
  }
  return out;
}
