import type { KeyboardEvent } from "react";
import type { PickerState } from "../PickerOption";
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

/**
 * An open picker's keys: Up/Down move, Tab or Enter pick, Escape closes. Says whether it took the key.
 * `enter: false` leaves Enter to the box, `arrows: false` leaves Up/Down to it.
 */
function pickerKey(
  event: KeyboardEvent<HTMLTextAreaElement>,
  picker: PickerState<unknown>,
  take: { enter: boolean; arrows: boolean },
): boolean {
  if ((event.key === "ArrowDown" || event.key === "ArrowUp") && take.arrows) {
    event.preventDefault();
    picker.move(event.key === "ArrowDown" ? 1 : -1);
    return true;
  }
  if ((event.key === "Tab" || (event.key === "Enter" && take.enter)) && !event.shiftKey && picker.items.length) {
    event.preventDefault();
    picker.pick(picker.active);
    return true;
  }
  if (event.key === "Escape") {
    event.preventDefault();
    picker.close();
    return true;
  }
  return false;
}

/**
 * The `/` menu's keys: as a picker's, but Enter on a command already typed in full sends it, and
 * Up/Down walk the history while no command is listed.
 */
function slashKey(event: KeyboardEvent<HTMLTextAreaElement>, text: string, slash: CommandMenu): boolean {
  const typed = text.trim().slice(1).toLowerCase();
  const full = slash.items[slash.active]?.name.toLowerCase() === typed;
  return pickerKey(event, slash, { enter: !full, arrows: slash.items.length > 0 });
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
  if (mention.open && pickerKey(event, mention, { enter: true, arrows: true })) return;
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
