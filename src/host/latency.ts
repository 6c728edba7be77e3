import type { Logger } from "./log";

/**
 * Steps on the paths a person waits on (an edit's card and diff, Approve → written, Enter → the
 * model's request), logged at debug level with the wall clock:
 *   `latency <id> <step> @<epoch ms>`
 * `id` is the tool call's id (or `send-<n>` for a message). With Fathom's log at Debug
 * ("Developer: Set Log Level…"), a run's log shows where the time went; `npm run bench -- vscode`
 * reads these lines for its breakdown. Cheap when the level is Info: one string and a call.
 */
export function latency(log: Logger | undefined, id: string, step: string): void {
  log?.debug(`latency ${id} ${step} @${Date.now()}`);
}

export interface LatencyMark {
  id: string;
  step: string;
  at: number;
}

/** The latency marks in a log's text, in order. */
export function parseLatencyMarks(text: string): LatencyMark[] {
  const marks: LatencyMark[] = [];
  for (const m of text.matchAll(/latency (\S+) (.+?) @(\d{13})/g))
    marks.push({ id: m[1]!, step: m[2]!, at: Number(m[3]) });
  return marks;
}
