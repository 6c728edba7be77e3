/**
 * The run options that say how the model is driven (`--tools`, `--profile`, `--context-window`,
 * `--temperature`, `--seed`), read into the same override a `fathom.modelOverrides` entry is,
 * and the line that tells the person which mode and profile a run uses when it is not the usual one.
 */
import type { ModelOverride } from "../core/model/modelOverrides";
import type { ChatModel } from "../core/model/types";

export const MODEL_OPTIONS = {
  tools: { type: "string" },
  profile: { type: "string" },
  "context-window": { type: "string" },
  temperature: { type: "string" },
  seed: { type: "string" },
} as const;

const TOOL_MODES = ["native", "text", "none", "constrained"] as const;
const PROFILES = ["small", "full"] as const;

type Values = Partial<Record<keyof typeof MODEL_OPTIONS, string>>;

/** The override these options make; an error message (for a usage error) when one is wrong. */
export function modelOverrideOf(values: Values): { override?: ModelOverride } | { error: string } {
  const override: ModelOverride = {};
  if (values.tools !== undefined) {
    const mode = TOOL_MODES.find((m) => m === values.tools);
    if (!mode) return { error: `--tools must be native, text, none or constrained (got "${values.tools}").` };
    override.tools = mode;
  }
  if (values.profile !== undefined) {
    const profile = PROFILES.find((p) => p === values.profile);
    if (!profile) return { error: `--profile must be small or full (got "${values.profile}").` };
    override.profile = profile;
  }
  if (values["context-window"] !== undefined) {
    const n = Number(values["context-window"]);
    if (!Number.isInteger(n) || n < 1024)
      return {
        error: `--context-window must be a whole number of tokens, at least 1024 (got "${values["context-window"]}").`,
      };
    override.contextWindow = n;
  }
  if (values.temperature !== undefined) {
    const t = Number(values.temperature);
    if (values.temperature.trim() === "" || !Number.isFinite(t) || t < 0 || t > 2)
      return { error: `--temperature must be a number from 0 to 2 (got "${values.temperature}").` };
    override.temperature = t;
  }
  if (values.seed !== undefined) {
    const s = Number(values.seed);
    if (values.seed.trim() === "" || !Number.isSafeInteger(s))
      return { error: `--seed must be a whole number (got "${values.seed}").` };
    override.seed = s;
  }
  return Object.keys(override).length ? { override } : {};
}

/**
 * Says on stderr, before the first request, which tool-call mode and profile a run uses when it
 * is not the usual one (native, full): a small model's run reads differently, and the person can
 * choose otherwise with --tools and --profile.
 */
export async function announceFit(model: ChatModel, write: (line: string) => void): Promise<void> {
  const fit = await model.fit?.();
  if (!fit || (fit.toolCallMode === "native" && fit.profile === "full")) return;
  write(
    `fathom: ${fit.profile} profile, ${fit.toolCallMode} tool calls (${fit.reason}). Choose otherwise with --tools and --profile.\n`,
  );
}
