import { initialChatState, type AttachmentView, type ChatState, type HostToWebviewChat, type MemoryView, type ModelOption, type TeamFilesView, type ToolItem, type TranscriptItem } from "../../../src/protocol";

/** Most characters of command output a card keeps (the head is dropped; the host caps too). */
export const MAX_EXEC_OUTPUT_CHARS = 200_000;

export interface ViewState {
  chat: ChatState;
  /** Counts `state` messages: the transcript starts afresh with each. */
  generation: number;
  /** Older items added at the top since the last `state` (see restoreState.ts). */
  prepended: number;
  /** False until the host's first `state`: the view says it is connecting. */
  connected: boolean;
  /** The latest answer to the composer's `@` file search. */
  mentions: MentionResults | null;
  /** Text the host put back into the message box (Edit and resend); `seq` tells a new one apart. */
  composerFill?: { text: string; seq: number } | undefined;
  /** The latest answer to the Model box's request for the provider's models. */
  models?: ModelListView | undefined;
  /** The message box's chips (the host keeps them); `notice` says why a command added nothing; `focusSeq` asks for the caret. */
  chips: { attachments: AttachmentView[]; notice?: string | undefined; focusSeq: number };
  /** The rules, prompt files, skills and custom agents found (null until the host sent them). */
  teamFiles?: TeamFilesView | null;
  /** What Fathom remembers (null until the host sent the list, when the Memories list was opened). */
  memories?: MemoryView[] | null;
}

export interface ModelListView {
  requestId: number;
  models: ModelOption[];
  error?: string | undefined;
}

export interface MentionResults {
  requestId: number;
  files: { path: string; isDir?: boolean }[];
}

type Update = (item: TranscriptItem) => TranscriptItem;

/**
 * Returns `items` with the item `id` replaced by `update(item)`, searching nested subagent
 * activity too. The newest items are searched first: that is where streaming happens. Returns
 * the same array when the id is unknown, so nothing re-renders.
 */
export function updateItem(items: TranscriptItem[], id: string, update: Update): TranscriptItem[] {
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

/** Appends `item` at the top level, or inside the `task` card `parentId`. */
function appendItem(items: TranscriptItem[], item: TranscriptItem, parentId: string | undefined): TranscriptItem[] {
  if (parentId === undefined) return [...items, item];
  const updated = updateItem(items, parentId, (parent) =>
    parent.kind === "tool" ? { ...parent, children: [...(parent.children ?? []), item] } : parent,
  );
  // An unknown parent should not lose the item: show it at the top level.
  return updated === items ? [...items, item] : updated;
}

function appendExec(tool: ToolItem, chunk: string): ToolItem {
  const exec = tool.exec ?? { command: "", output: "" };
  let output = exec.output + chunk;
  if (output.length > MAX_EXEC_OUTPUT_CHARS) output = output.slice(output.length - MAX_EXEC_OUTPUT_CHARS);
  return { ...tool, exec: { ...exec, output, truncated: exec.truncated || output.length !== exec.output.length + chunk.length } };
}

/** A host message, or the older items of the last `state`, validated after its first paint. */
export type ChatAction = HostToWebviewChat | { type: "olderItems"; items: TranscriptItem[] };

export const emptyView: ViewState = { chat: initialChatState(), connected: false, mentions: null, generation: 0, prepended: 0, chips: { attachments: [], focusSeq: 0 } };

/** Applies one host message to the view state (pure). */
export function reduce(view: ViewState, message: ChatAction): ViewState {
  const chat = view.chat;
  const withChat = (next: Partial<ChatState>): ViewState => ({ ...view, chat: { ...chat, ...next } });
  switch (message.type) {
    case "state":
      return { ...view, connected: true, chat: message.state, generation: view.generation + 1, prepended: 0 };
    case "olderItems":
      return { ...withChat({ items: [...message.items, ...chat.items] }), prepended: view.prepended + message.items.length };
    case "itemAppended":
      return withChat({ items: appendItem(chat.items, message.item, message.parentId) });
    case "itemUpdated":
      return withChat({ items: updateItem(chat.items, message.item.id, () => message.item) });
    case "textAppended":
      return withChat({
        items: updateItem(chat.items, message.id, (item) =>
          item.kind === "assistant" ? { ...item, text: item.text + message.text } : item,
        ),
      });
    case "reasoningAppended":
      return withChat({
        items: updateItem(chat.items, message.id, (item) => (item.kind === "assistant" ? { ...item, reasoning: (item.reasoning ?? "") + message.text } : item)),
      });
    case "model":
      return withChat({ model: message.model });
    case "models":
      return { ...view, models: { requestId: message.requestId, models: message.models, error: message.error } };
    case "execOutput":
      return withChat({
        items: updateItem(chat.items, message.id, (item) => (item.kind === "tool" ? appendExec(item, message.chunk) : item)),
      });
    case "todos":
      return withChat({ todos: message.todos });
    case "usage":
      return withChat({ usage: message.usage });
    case "status":
      return withChat({ status: message.status, title: message.title ?? chat.title });
    case "queued":
      return withChat({ queued: message.queued });
    case "mcpServers":
      return withChat({ mcpServers: message.servers });
    case "teamFiles":
      return { ...view, teamFiles: message.teamFiles };
    case "agent":
      return withChat({ agent: message.agent });
    case "rules":
      return withChat({ rules: message.rules });
    case "memories":
      return { ...view, memories: message.memories };
    case "banner":
      return withChat({ banner: message.banner });
    case "history":
      return withChat({ history: message.history });
    case "checkpointStorage":
      return withChat({ checkpointStorage: message.storage });
    case "mentionResults":
      return { ...view, mentions: { requestId: message.requestId, files: message.files } };
    case "restorePreview":
      return withChat({ restorePreview: message.preview });
    case "parallel":
      return withChat({ parallel: message.parallel });
    case "composerText":
      return { ...view, composerFill: { text: message.text, seq: (view.composerFill?.seq ?? 0) + 1 } };
    case "attachments":
      return { ...view, chips: { attachments: message.attachments, notice: message.notice, focusSeq: view.chips.focusSeq + (message.focus ? 1 : 0) } };
  }
}

/** Tool calls waiting for the person, nested ones included, oldest first. */
export function pendingApprovals(items: TranscriptItem[], out: ToolItem[] = []): ToolItem[] {
  for (const item of items) {
    if (item.kind !== "tool") continue;
    if (item.status === "awaiting_approval") out.push(item);
    if (item.children?.length) pendingApprovals(item.children, out);
  }
  return out;
}

/** The texts the person sent, oldest first: the composer's Up history after a reload. */
export function sentMessages(items: TranscriptItem[]): string[] {
  const texts: string[] = [];
  for (const item of items) if (item.kind === "user" && item.text) texts.push(item.text);
  return texts;
}
