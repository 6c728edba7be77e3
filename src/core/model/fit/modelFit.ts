/**
 * Which tool-call mode and agent profile suit a model, when the person has not said:
 * - a small model (at most 4B parameters, by its id — "smollm2-135m", "qwen2.5:0.5b", "llama3.2:3b"
 *   — or, for a local server that says, by its own count) gets `constrained` tool calls and the
 *   small-model profile;
 * - a small context window (16K tokens or less, set by the person or said by the server) gets the
 *   small-model profile with its usual mode;
 * - everything else, every model of the built-in table (the hosted ones) included, is as before:
 *   `native` and the full profile, with nothing asked of any server.
 * What the person sets in `fathom.modelOverrides` (`tools`, `profile`) or on the CLI always wins.
 */
import { lookupModel } from "../modelTable";
import type { AgentProfile, ModelFit, ToolCallMode } from "../types";

export const SMALL_MODEL_MAX_BILLIONS = 4;
export const SMALL_CONTEXT_WINDOW = 16_384;

/** What a local server says of its model (modelProbe.ts asks it); the fit is decided on it. */
export interface ProbeResult {
  billions?: number;
  contextWindow?: number;
}

export type ModelProbe = () => Promise<ProbeResult | undefined>;

export interface FitSettings {
  /** The person's choice; undefined: decided here. */
  toolCallMode?: ToolCallMode;
  profile?: AgentProfile;
  /** A context window the person set (not the table's default). */
  contextWindow?: number;
}

/**
 * Parameters in billions written in a model id: "135m" → 0.135, "qwen2.5:0.5b" → 0.5,
 * "mixtral:8x7b" → 56, "gemma3n:e2b" → 2; undefined when the id does not say.
 */
export function billionsFromId(id: string): number | undefined {
  const lower = id.toLowerCase();
  const mixture = /(?:^|[^a-z0-9.])(\d+)x(\d+(?:\.\d+)?)b(?![a-z0-9])/.exec(lower);
  if (mixture) return Number(mixture[1]) * Number(mixture[2]);
  const size = /(?:^|[^a-z0-9.])e?(\d+(?:\.\d+)?)([mb])(?![a-z0-9])/.exec(lower);
  if (!size) return undefined;
  const n = Number(size[1]);
  return size[2] === "m" ? n / 1000 : n;
}

/** What is known about a model's size without asking its server (the table's models are not small). */
export function sizeFromName(model: string): { billions: number; from: string } | undefined {
  if (lookupModel(model)) return undefined;
  const billions = billionsFromId(model);
  return billions === undefined ? undefined : { billions, from: "its name" };
}

export async function decideFit(
  model: { model: string },
  settings: FitSettings,
  probe?: ModelProbe,
): Promise<ModelFit> {
  const known = lookupModel(model.model) !== undefined;
  let size = sizeFromName(model.model);
  let contextWindow = settings.contextWindow;
  const chosen = settings.toolCallMode !== undefined && settings.profile !== undefined;
  if (!chosen && !known && (size === undefined || contextWindow === undefined) && probe) {
    const found = await probe();
    if (found?.billions !== undefined && size === undefined) {
      size = { billions: found.billions, from: "its server" };
    }
    contextWindow ??= found?.contextWindow;
  }
  const small = size !== undefined && size.billions <= SMALL_MODEL_MAX_BILLIONS;
  const sizeWords = size
    ? `${formatBillions(size.billions)} parameters (from ${size.from})`
    : known
      ? "a known hosted model"
      : "size unknown";
  const mode = settings.toolCallMode ?? (small ? "constrained" : "native");
  const smallContext = contextWindow !== undefined && contextWindow <= SMALL_CONTEXT_WINDOW;
  const profile = settings.profile ?? (mode === "constrained" || smallContext ? "small" : "full");
  const why = [
    sizeWords,
    ...(contextWindow !== undefined ? [`${contextWindow.toLocaleString("en-US")}-token context`] : []),
    settings.toolCallMode
      ? `tool calls set to ${settings.toolCallMode}`
      : `${mode} tool calls ${small ? `(at most ${SMALL_MODEL_MAX_BILLIONS}B: small)` : "(the default)"}`,
    settings.profile
      ? `profile set to ${settings.profile}`
      : `${profile} profile${profile === "small" ? (mode === "constrained" ? " (constrained mode)" : ` (context of ${SMALL_CONTEXT_WINDOW.toLocaleString("en-US")} tokens or less)`) : ""}`,
  ];
  return { toolCallMode: mode, profile, reason: `${model.model}: ${why.join("; ")}` };
}

function formatBillions(b: number): string {
  return b < 1 ? `${Math.round(b * 1000)}M` : `${Number(b.toFixed(1))}B`;
}
