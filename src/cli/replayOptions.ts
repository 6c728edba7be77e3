/**
 * `fathom run --record FILE` and `--replay FILE`: the model's `fetch` goes through a cassette
 * recorder or player (src/core/replay), and after the run the person is told what was recorded,
 * or where a replay left the recording.
 */
import { CassetteError, readCassette, type Cassette } from "../core/replay/cassette";
import { CassettePlayer } from "../core/replay/cassettePlayer";
import { CassetteRecorder } from "../core/replay/cassetteRecorder";
import type { Provider } from "../core/model/createModel";

/** Where a replayed model is "reached": never, since the player answers every request. */
export const REPLAY_BASE_URL: Record<Provider, string> = {
  openai: "http://replay.invalid/v1",
  "openai-compatible": "http://replay.invalid/v1",
  anthropic: "http://replay.invalid",
};

/** Reads a recording for --replay; a problem becomes a message for the person. */
export function loadReplay(file: string): { cassette: Cassette } | { error: string } {
  try {
    return { cassette: readCassette(file) };
  } catch (error) {
    if (error instanceof CassetteError) return { error: `--replay: ${error.message}` };
    throw error;
  }
}

export interface ModelTap {
  fetch: typeof fetch;
  /** Lines for stderr once the run ended (what was recorded, or how the replay went). */
  finish(): Promise<string[]>;
  /** Set when a replay left the recording. */
  divergence(): { request: number; what: string; report: string } | undefined;
}

export function recordTo(
  file: string,
  o: {
    provider: Provider;
    model: string;
    prompt: string;
    workspaceRoot: string;
    secrets: string[];
    options: Record<string, unknown>;
  },
): ModelTap {
  const recorder = new CassetteRecorder({
    file,
    header: { provider: o.provider, model: o.model, prompt: o.prompt, options: o.options },
    workspaceRoot: o.workspaceRoot,
    secrets: o.secrets,
  });
  return {
    fetch: recorder.fetch,
    async finish() {
      await recorder.flush();
      return [
        `Recorded ${recorder.count} model request${recorder.count === 1 ? "" : "s"} to ${file} (no keys or auth headers). Replay it: fathom run --replay ${file}`,
      ];
    },
    divergence: () => undefined,
  };
}

export function replayFrom(cassette: Cassette, workspaceRoot: string): ModelTap {
  const player = new CassettePlayer(cassette, { workspaceRoot });
  return {
    fetch: player.fetch,
    async finish() {
      const verdict = player.verdict();
      return verdict ? [verdict.report] : [];
    },
    divergence: () => player.verdict(),
  };
}
