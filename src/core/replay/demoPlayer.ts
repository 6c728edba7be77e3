/**
 * How the demo plays its recording (test/fixtures/demo/cassette.jsonl: several recorded runs of
 * one task merged, one per decision a person can take), wherever it plays: the extension's
 * "Try the Demo Task" (this player is the model's `fetch`) and `npm run demo` (a scripted
 * server answers from it).
 *
 * The recording was made outside VS Code and plays inside it, so tool results are compared by
 * outcome (an edit applied or not, a command's exit code) and the person may phrase their
 * messages as they like. A reload or a second window asks again and gets the same answers.
 * A conversation that leaves the recording (a follow-up after the end, say) gets the recorded
 * closing note: the exchange of the `after-end` session, whatever was asked.
 */
import { CassetteError, type Cassette, type RecordedExchange } from "./cassette";
import { CassettePlayer, type CassettePlayerOptions } from "./cassettePlayer";
import type { MatchRules } from "./divergence";

export const DEMO_RULES: MatchRules = { results: "outcome", userText: "any" };

/** The recorded session whose one exchange answers anything the recording has no answer for. */
export const AFTER_END_SESSION = "after-end";

/** The recording's closing note. Throws a CassetteError when the recording has none. */
export function afterEndExchange(cassette: Cassette): RecordedExchange {
  const found = cassette.exchanges.find((x) => x.session === AFTER_END_SESSION && x.response?.events);
  if (!found)
    throw new CassetteError(
      `${cassette.file ?? "The demo's recording"} has no "${AFTER_END_SESSION}" exchange (the closing note); record it again with test/fixtures/demo/record.ts.`,
    );
  return found;
}

export type DemoPlayerOptions = Pick<CassettePlayerOptions, "pace" | "workspaceRoot" | "onDivergence">;

/** A player of the demo's recording under the demo's rules; its `fetch` never fails a request. */
export function createDemoPlayer(cassette: Cassette, options: DemoPlayerOptions = {}): CassettePlayer {
  return new CassettePlayer(cassette, {
    ...options,
    rules: DEMO_RULES,
    reuse: true,
    offRecord: afterEndExchange(cassette),
  });
}
