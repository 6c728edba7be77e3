import { z } from "zod";
import {
  ChatStateSchema,
  TranscriptItemSchema,
  parseMessage,
  type ChatState,
  type TranscriptItem,
} from "../../../src/protocol";

/** Items validated before the first paint: the end of the transcript, which is what shows. */
const FIRST_ITEMS = 80;
/** Older items validated per task afterwards, so no task runs long. */
const CHUNK = 200;

const StateShellSchema = z.object({
  type: z.literal("state"),
  state: ChatStateSchema.extend({ items: z.array(z.unknown()) }),
});

function validItems(raw: unknown[]): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  for (const data of raw) {
    const parsed = parseMessage(TranscriptItemSchema, data);
    if (parsed.ok) items.push(parsed.message);
    else console.warn(`Fathom: dropped an invalid transcript item from the host: ${parsed.error}`);
  }
  return items;
}

export interface ParsedState {
  state: ChatState;
  /** Older items not yet validated, oldest first. */
  older: unknown[];
}

/**
 * A `state` message validated in two steps, so a long transcript paints at once: everything
 * but the items, plus the newest items, now; the older items (each checked by the schema,
 * invalid ones dropped) by `restoreOlder`. Returns an error for a malformed message.
 */
export function parseStateMessage(data: unknown): { ok: true; parsed: ParsedState } | { ok: false; error: string } {
  const shell = parseMessage(StateShellSchema, data);
  if (!shell.ok) return shell;
  const raw = shell.message.state.items;
  const split = Math.max(0, raw.length - FIRST_ITEMS);
  return {
    ok: true,
    parsed: { state: { ...shell.message.state, items: validItems(raw.slice(split)) }, older: raw.slice(0, split) },
  };
}

export interface Restore {
  /** Validates what is left synchronously (before another host message is applied). */
  finishNow(): void;
  cancel(): void;
}

/** Validates `older` in small tasks, newest first, then hands over all of them at once. */
export function restoreOlder(older: unknown[], done: (items: TranscriptItem[]) => void): Restore {
  const chunks: TranscriptItem[][] = [];
  let end = older.length;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  const step = (all: boolean) => {
    while (end > 0) {
      const start = Math.max(0, end - CHUNK);
      chunks.unshift(validItems(older.slice(start, end)));
      end = start;
      if (!all) break;
    }
    if (end > 0) timer = setTimeout(() => step(false), 0);
    else if (!finished) {
      finished = true;
      done(chunks.flat());
    }
  };
  // Start after the first paint of the newest items.
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(() => step(false), 0);
  });
  return {
    finishNow() {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      step(true);
    },
    cancel() {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      finished = true;
    },
  };
}
