import { useEffect, useState } from "react";
import type { TeamFilesView } from "../../../src/protocol";
import { BUILTIN_COMMANDS } from "../lib/builtinCommands";
import { askTeamFilesOnce } from "../lib/teamFilesRequest";
import { PickerList, type PickerState } from "./PickerOption";

/** A `/` command as the picker lists it. */
export interface SlashOption {
  name: string;
  description: string;
  argumentHint?: string | undefined;
  /** The prompt file it runs (absent: Fathom's own). */
  source?: string;
}

const SLASH_BEFORE_CARET = /^\/([^\s/]*)$/;

/** The commands whose name starts with the query (then those that contain it), Fathom's own first. */
export function slashOptions(query: string, commands: TeamFilesView["commands"] | undefined): SlashOption[] {
  const builtins = new Set(BUILTIN_COMMANDS.map((c) => c.name));
  const all: SlashOption[] = [
    ...BUILTIN_COMMANDS,
    ...(commands ?? []).filter((c) => !builtins.has(c.name.toLowerCase())),
  ];
  const q = query.toLowerCase();
  const starts = all.filter((c) => c.name.toLowerCase().startsWith(q));
  return [...starts, ...all.filter((c) => !starts.includes(c) && c.name.toLowerCase().includes(q))].slice(0, 50);
}

/**
 * The `/` picker's state: open while the message box holds only `/word` before the caret. The
 * prompt files are asked of the host the first time it opens (they are read on first use).
 */
export function useSlashPicker(commands: TeamFilesView["commands"] | undefined) {
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  useEffect(() => {
    if (query !== null) askTeamFilesOnce();
  }, [query]);
  const items = query === null ? [] : slashOptions(query, commands);
  return {
    open: query !== null,
    items,
    active: Math.min(active, Math.max(0, items.length - 1)),
    loading: commands === undefined,
    setActive,
    close: () => setQuery(null),
    /** Follows the text before the caret. */
    update(before: string) {
      const m = SLASH_BEFORE_CARET.exec(before);
      const next = m ? m[1]! : null;
      if (next !== query) setActive(0);
      setQuery(next);
    },
  };
}

/** The `/` command picker over the message box; the box keeps focus (aria-activedescendant). */
export function SlashPicker({ id, picker }: { id: string; picker: PickerState<SlashOption> }) {
  return (
    <PickerList
      id={id}
      picker={picker}
      className="mentions slash-commands"
      label="Commands"
      busy={picker.loading}
      empty="No command has that name. Prompt files in .github/prompts, .claude/commands or .clinerules/workflows become commands."
      keyOf={(c) => `${c.source ?? "fathom"}:${c.name}`}
      titleOf={(c) => (c.source ? `From ${c.source}` : "Fathom's own command")}
    >
      {(c) => (
        <>
          <span className={`codicon codicon-${c.source ? "file-text" : "symbol-event"}`} aria-hidden="true" />
          <span className="mention-resource">
            /{c.name}
            {c.argumentHint ? <span className="mention-detail"> {c.argumentHint}</span> : null}{" "}
            <span className="mention-detail">{c.description}</span>
          </span>
        </>
      )}
    </PickerList>
  );
}
