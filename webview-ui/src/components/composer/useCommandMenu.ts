import type { TeamFilesView } from "../../../../src/protocol";
import { useSlashPicker } from "../SlashPicker";
import type { MessageText } from "./useMessageText";

/** The `/` command menu: the picker's state, and a pick that puts the command in the box. */
export function useCommandMenu(commands: TeamFilesView["commands"] | undefined, { text, setTextAt }: MessageText) {
  const slash = useSlashPicker(commands);
  return {
    ...slash,
    /** A picked command goes in as `/name `, the caret after it, for its arguments. */
    pick(index: number) {
      const picked = slash.items[index];
      if (!picked) return;
      const rest = text.replace(/^\/\S*\s?/, "");
      setTextAt(`/${picked.name} ${rest}`, picked.name.length + 2);
      slash.close();
    },
    /** Moves the highlight down (1) or up (-1), round the list. */
    move(step: 1 | -1) {
      const n = slash.items.length;
      if (n) slash.setActive((slash.active + (step === 1 ? 1 : n - 1)) % n);
    },
  };
}

export type CommandMenu = ReturnType<typeof useCommandMenu>;
