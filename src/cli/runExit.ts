import type { DoneEvent } from "../core/run/events";
import { EXIT } from "./exitCodes";
import type { ModelTap } from "./replayOptions";

/**
 * The run's exit code, after the recording or replay is finished: a replay that went another way
 * than its recording fails (said as an event with --json); otherwise the task's end says it.
 */
export async function runExit(done: DoneEvent | undefined, tap: ModelTap | undefined, json: boolean): Promise<number> {
  if (tap) {
    for (const line of await tap.finish()) process.stderr.write(`fathom: ${line}\n`);
    const diverged = tap.divergence();
    if (diverged) {
      if (json)
        process.stdout.write(
          `${JSON.stringify({ type: "replay_diverged", request: diverged.request, what: diverged.what, report: diverged.report })}\n`,
        );
      return EXIT.failed;
    }
  }
  if (!done) return EXIT.failed;
  if (done.reason === "completed") return EXIT.done;
  if (done.reason === "cancelled") return EXIT.cancelled;
  return EXIT.failed;
}
