import type { KeyboardEvent } from "react";
import type { CommandMenu } from "./useCommandMenu";
import type { MentionPickerState } from "./useMentionPicker";
import type { SentHistory } from "./useSentHistory";

interface Keyed {
  text: string;
  slash: CommandMenu;
  mention: MentionPickerState;
  history: SentHistory;
  send: () => void;
}

/** The `/` menu's keys while it is open: Up/Down move, Tab or Enter complete, Escape closes. Says whether it took the key. */
function slashKey(event: KeyboardEvent<HTMLTextAreaElement>, text: string, slash: CommandMenu): boolean {
  const n = slash.options.length;
  if ((event.key === "ArrowDown" || event.key === "ArrowUp") && n) {
    event.preventDefault();
    slash.move(event.key === "ArrowDown" ? 1 : -1);
    return true;
  }
  // Enter on a command already typed in full sends it; otherwise it completes the pick.
  const typed = text.trim().slice(1).toLowerCase();
  if (
    (event.key === "Tab" || (event.key === "Enter" && slash.options[slash.active]?.name.toLowerCase() !== typed)) &&
    !event.shiftKey &&
    n
  ) {
    event.preventDefault();
    slash.pick(slash.active);
    return true;
  }
  if (event.key === "Escape") {
    event.preventDefault();
    slash.close();
    return true;
  }
  return false;
}

/** The `@` picker's keys while it is open: Up/Down move, Enter or Tab pick, Escape closes. Says whether it took the key. */
function mentionKey(event: KeyboardEvent<HTMLTextAreaElement>, mention: MentionPickerState): boolean {
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    mention.move(event.key === "ArrowDown" ? 1 : -1);
    return true;
  }
  if ((event.key === "Enter" || event.key === "Tab") && !event.shiftKey && mention.files.length) {
    event.preventDefault();
    mention.pick(mention.active);
    return true;
  }
  if (event.key === "Escape") {
    event.preventDefault();
    mention.close();
    return true;
  }
  return false;
}

/**
 * The message box's keys: an open picker's first, then Enter sends (Shift+Enter is a new line),
 * and Up/Down on the first/last line walk the messages sent earlier.
 */
export function onComposerKeyDown(
  event: KeyboardEvent<HTMLTextAreaElement>,
  { text, slash, mention, history, send }: Keyed,
) {
  if (event.nativeEvent.isComposing) return;
  const el = event.currentTarget;
  if (slash.open && !mention.open && slashKey(event, text, slash)) return;
  if (mention.open && mentionKey(event, mention)) return;
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    send();
    return;
  }
  const caret = el.selectionStart;
  const collapsed = caret === el.selectionEnd;
  if (event.key === "ArrowUp" && collapsed && !text.slice(0, caret).includes("\n")) {
    if (history.back(text)) event.preventDefault();
  } else if (event.key === "ArrowDown" && collapsed && !text.slice(caret).includes("\n")) {
    if (history.forward()) event.preventDefault();
  }
}
