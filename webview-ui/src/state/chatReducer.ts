import {
  initialChatState,
  reduceChat,
  type ApprovalsView,
  type AttachmentView,
  type ChatState,
  type HostToWebviewChat,
  type MemoryView,
  type ModelOption,
  type TeamFilesView,
  type ToolItem,
  type TranscriptItem,
} from "../../../src/protocol";

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
  /** The window's permission level (undefined until the host sent it). */
  approvals?: ApprovalsView | undefined;
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

/** A host message, or the older items of the last `state`, validated after its first paint. */
export type ChatAction = HostToWebviewChat | { type: "olderItems"; items: TranscriptItem[] };

export const emptyView: ViewState = {
  chat: initialChatState(),
  connected: false,
  mentions: null,
  generation: 0,
  prepended: 0,
  chips: { attachments: [], focusSeq: 0 },
};

/**
 * Applies one host message to the view state (pure). The chat state changes by the protocol's
 * `reduceChat`, the host's reducer too; the rest is the webview's own (connection, answers to its
 * requests, the message box, panels).
 */
export function reduce(view: ViewState, message: ChatAction): ViewState {
  switch (message.type) {
    case "state":
      return {
        ...view,
        connected: true,
        chat: reduceChat(view.chat, message),
        generation: view.generation + 1,
        prepended: 0,
      };
    case "olderItems":
      return {
        ...view,
        chat: { ...view.chat, items: [...message.items, ...view.chat.items] },
        prepended: view.prepended + message.items.length,
      };
    case "models":
      return { ...view, models: { requestId: message.requestId, models: message.models, error: message.error } };
    case "teamFiles":
      return { ...view, teamFiles: message.teamFiles };
    case "memories":
      return { ...view, memories: message.memories };
    case "approvals":
      return { ...view, approvals: message.approvals };
    case "mentionResults":
      return { ...view, mentions: { requestId: message.requestId, files: message.files } };
    case "composerText":
      return { ...view, composerFill: { text: message.text, seq: (view.composerFill?.seq ?? 0) + 1 } };
    case "attachments":
      return {
        ...view,
        chips: {
          attachments: message.attachments,
          notice: message.notice,
          focusSeq: view.chips.focusSeq + (message.focus ? 1 : 0),
        },
      };
    default: {
      const chat = reduceChat(view.chat, message);
      return chat === view.chat ? view : { ...view, chat };
    }
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
