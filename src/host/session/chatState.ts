import type { ChatState, HostToWebviewChat, ToolItem, TranscriptItem } from "../../protocol";

/**
 * The host's copy of the chat view model and the one way it changes: by applying the same
 * messages the webview receives. So the host's state and the webview's never drift, and a
 * reloaded webview gets exactly what it would have built from the stream.
 */

/** Most characters of command output a card keeps (the oldest are dropped). */
export const MAX_CARD_OUTPUT_CHARS = 200_000;

export { emptyUsageView, initialChatState } from "../../protocol";

/** The item `id`, searching subagent activity too (newest first: where streaming happens). */
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

/** Replaces the item `id` in place (nested too). Returns false when it is unknown. */
function replaceItem(items: TranscriptItem[], id: string, update: (item: TranscriptItem) => TranscriptItem): boolean {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.id === id) {
      items[i] = update(item);
      return true;
    }
    if (item.kind === "tool" && item.children?.length && replaceItem(item.children, id, update)) return true;
  }
  return false;
}

function appendOutput(tool: ToolItem, chunk: string): ToolItem {
  const exec = tool.exec ?? { command: "", output: "" };
  let output = exec.output + chunk;
  const cut = output.length > MAX_CARD_OUTPUT_CHARS;
  if (cut) output = output.slice(output.length - MAX_CARD_OUTPUT_CHARS);
  return { ...tool, exec: { ...exec, output, ...(cut || exec.truncated ? { truncated: true } : {}) } };
}

/** Applies one host → webview message to `state` (in place). */
export function applyMessage(state: ChatState, message: HostToWebviewChat): void {
  switch (message.type) {
    case "state":
      Object.assign(state, structuredClone(message.state));
      return;
    case "itemAppended": {
      const parent = message.parentId !== undefined ? findItem(state.items, message.parentId) : undefined;
      if (parent?.kind === "tool") parent.children = [...(parent.children ?? []), message.item];
      else state.items.push(message.item);
      return;
    }
    case "itemUpdated":
      replaceItem(state.items, message.item.id, () => message.item);
      return;
    case "textAppended":
      replaceItem(state.items, message.id, (item) => (item.kind === "assistant" ? { ...item, text: item.text + message.text } : item));
      return;
    case "reasoningAppended":
      replaceItem(state.items, message.id, (item) => (item.kind === "assistant" ? { ...item, reasoning: (item.reasoning ?? "") + message.text } : item));
      return;
    case "model":
      state.model = message.model;
      return;
    case "execOutput":
      replaceItem(state.items, message.id, (item) => (item.kind === "tool" ? appendOutput(item, message.chunk) : item));
      return;
    case "todos":
      state.todos = message.todos;
      return;
    case "usage":
      state.usage = message.usage;
      return;
    case "status":
      state.status = message.status;
      if (message.title !== undefined) state.title = message.title;
      return;
    case "queued":
      state.queued = message.queued;
      return;
    case "agent":
      state.agent = message.agent;
      return;
    case "rules":
      state.rules = message.rules;
      return;
    case "mcpServers":
      state.mcpServers = message.servers;
      return;
    case "banner":
      state.banner = message.banner;
      return;
    case "history":
      state.history = message.history;
      return;
    case "checkpointStorage":
      state.checkpointStorage = message.storage;
      return;
    case "restorePreview":
      state.restorePreview = message.preview;
      return;
    case "parallel":
      state.parallel = message.parallel;
      return;
    case "mentionResults":
    case "composerText":
    case "models":
      return;
  }
}

/** Tool calls still open (streaming, running or waiting for the person), nested ones too. */
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

export function openToolItems(items: readonly TranscriptItem[], out: ToolItem[] = []): ToolItem[] {
  for (const item of items) {
    if (item.kind !== "tool") continue;
    if (item.status === "streaming" || item.status === "running" || item.status === "awaiting_approval") out.push(item);
    if (item.children?.length) openToolItems(item.children, out);
  }
  return out;
}
