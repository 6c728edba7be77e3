import { DEFAULT_MODELS, createModel } from "../core/model/createModel";
import { recordTo, replayFrom } from "./replayOptions";
import type { CliOptions } from "./runOptions";

/**
 * The run's models: `makeModel(id)` for the one asked and any an agent file names, recorded to
 * (--record) or replayed from (--replay) a file through `tap`, retried after
 * FATHOM_RETRY_BASE_DELAY_MS (at once when replaying).
 */
export function cliModels(opts: CliOptions) {
  const retryBase = opts.replay ? 1 : Number(process.env.FATHOM_RETRY_BASE_DELAY_MS);
  const tap = opts.replay
    ? replayFrom(opts.replay, opts.cwd)
    : opts.record
      ? recordTo(opts.record, {
          provider: opts.provider,
          model: opts.model.trim() || DEFAULT_MODELS[opts.provider],
          prompt: opts.prompt,
          workspaceRoot: opts.cwd,
          secrets: opts.apiKey ? [opts.apiKey] : [],
          options: { yes: opts.yes, sandbox: opts.sandbox },
        })
      : undefined;
  const makeModel = (id: string) =>
    createModel({
      provider: opts.provider,
      model: id,
      ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
      ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
      ...(opts.override ? { override: opts.override } : {}),
      ...(Number.isFinite(retryBase) && retryBase >= 0 ? { retryBaseDelayMs: retryBase } : {}),
      ...(tap ? { fetch: tap.fetch } : {}),
      surface: "cli",
    });
  return { tap, makeModel };
}
