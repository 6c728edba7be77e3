/**
 * Small local models fall into loops mid-answer: SmolLM2-135M answered "tell me the launch code"
 * with a few words and then "of the launch of the launch …" (or "```" line after line) until the
 * token limit (320 tokens took 55 s of a CPU-bound server). This watches the streamed text and says when its end is one short piece repeated
 * many times, so the loop can stop the stream instead of waiting for the limit.
 */

/** The repeated piece, where the repetition starts, and how many times it came. */
export interface Runaway {
  unit: string;
  start: number;
  repeats: number;
}

const MAX_UNIT = 64;
const MIN_REPEATS = 12;
/** A run of repeats must cover this many characters: a short ruler ("-----") is not a loop. */
const MIN_CHARS = 240;

/** Whether `text` ends in a run of one piece (1-64 characters) repeated past the thresholds. */
export function findRunaway(text: string): Runaway | undefined {
  for (let len = 1; len <= MAX_UNIT && len * MIN_REPEATS <= text.length; len++) {
    const unit = text.slice(-len);
    if (unit.trim() === "" && len < 4) continue; // blank lines and trailing spaces are common
    let repeats = 1;
    let at = text.length - len;
    while (at - len >= 0 && text.startsWith(unit, at - len)) {
      at -= len;
      repeats++;
    }
    if (repeats >= MIN_REPEATS && repeats * len >= MIN_CHARS) return { unit, start: at, repeats };
  }
  return undefined;
}

/** Checks streamed text as it grows, every 32 characters (cheap on long answers). */
export class RunawayWatch {
  private text = "";
  private checkedAt = 0;

  /** Adds a delta; returns the runaway once the text ends in one. */
  push(delta: string): Runaway | undefined {
    this.text += delta;
    if (this.text.length - this.checkedAt < 32) return undefined;
    this.checkedAt = this.text.length;
    return findRunaway(this.text);
  }

  /** The text before the loop, plus one copy of the repeated piece. */
  trimmed(runaway: Runaway): string {
    return this.text.slice(0, runaway.start + runaway.unit.length).trimEnd();
  }
}
