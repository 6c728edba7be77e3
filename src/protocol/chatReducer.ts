import type { ChatState, ToolItem, TranscriptItem } from "./chat";
import type { HostToWebviewChat } from "./chatMessages";
import { findItem, updateItem } from "./transcript";

/**
 * The one way the chat view model changes: a host → webview message applied to a `ChatState`.
 * The host keeps its copy with it and the webview builds its own from the same messages, so the
 * two never drift and a reloaded webview gets exactly what it would have built from the stream.
 * Pure and immutable: no timers, no posting (the host's batching is ChatViewModel's).
 */

/** Most characters of command output a card keeps (the oldest are dropped). */
export const MAX_CARD_OUTPUT_CHARS = 200_000;

/**
 * Appends `item` at the top level, or inside the `task` card `parentId`. An unknown parent, or
 * one that is not a tool card, does not lose the item: it shows at the top level.
 */
function appendItem(items: TranscriptItem[], item: TranscriptItem, parentId: string | undefined): TranscriptItem[] {
  if (parentId === undefined || findItem(items, parentId)?.kind !== "tool") return [...items, item];
  return updateItem(items, parentId, (parent) =>
    parent.kind === "tool" ? { ...parent, children: [...(parent.children ?? []), item] } : parent,
  );
}

/**
 * Adds a chunk of command output, keeping the newest MAX_CARD_OUTPUT_CHARS. `truncated` is set
 * (and stays set) once any output was dropped, and is absent otherwise: absent and false mean
 * the same, and leaving it out keeps an untouched card equal to the one the host saved.
 */
function appendOutput(tool: ToolItem, chunk: string): ToolItem {
  const exec = tool.exec ?? { command: "", output: "" };
  let output = exec.output + chunk;
  const cut = output.length > MAX_CARD_OUTPUT_CHARS;
  if (cut) output = output.slice(output.length - MAX_CARD_OUTPUT_CHARS);
  return { ...tool, exec: { ...exec, output, ...(cut || exec.truncated ? { truncated: true } : {}) } };
}

/** `state` after one host message (the same object when the message is not about the chat state). */
export function reduceChat(state: ChatState, message: HostToWebviewChat): ChatState {
  const withItems = (items: TranscriptItem[]): ChatState => (items === state.items ? state : { ...state, items });
  switch (message.type) {
    case "state":
      return message.state;
    case "itemAppended":
      return withItems(appendItem(state.items, message.item, message.parentId));
    case "itemUpdated":
      return withItems(updateItem(state.items, message.item.id, () => message.item));
    case "textAppended":
      return withItems(
        updateItem(state.items, message.id, (item) =>
          item.kind === "assistant" ? { ...item, text: item.text + message.text } : item,
        ),
      );
    case "reasoningAppended":
      return withItems(
        updateItem(state.items, message.id, (item) =>
          item.kind === "assistant" ? { ...item, reasoning: (item.reasoning ?? "") + message.text } : item,
        ),
      );
    case "execOutput":
      return withItems(
        updateItem(state.items, message.id, (item) =>
          item.kind === "tool" ? appendOutput(item, message.chunk) : item,
        ),
      );
    case "model":
      return { ...state, model: message.model };
    case "todos":
      return { ...state, todos: message.todos };
    case "usage":
      return { ...state, usage: message.usage };
    case "status":
      return { ...state, status: message.status, title: message.title ?? state.title };
    case "queued":
      return { ...state, queued: message.queued };
    case "mode":
      return { ...state, mode: message.mode };
    case "agent":
      return { ...state, agent: message.agent };
    case "rules":
      return { ...state, rules: message.rules };
    case "mcpServers":
      return { ...state, mcpServers: message.servers };
    case "banner":
      return { ...state, banner: message.banner };
    case "history":
      return { ...state, history: message.history };
    case "checkpointStorage":
      return { ...state, checkpointStorage: message.storage };
    case "restorePreview":
      return { ...state, restorePreview: message.preview };
    case "changes":
      return { ...state, changes: message.changes };
    case "parallel":
      return { ...state, parallel: message.parallel };
    // Answers to one request and the webview's own panels: not part of the chat state.
    case "mentionResults":
    case "composerText":
    case "models":
    case "attachments":
    case "teamFiles":
    case "memories":
      return state;
  }
}
