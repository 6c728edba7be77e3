/**
 * What the person knows about a model that the built-in table does not (most local models):
 * its context window, how it calls tools, whether it reads images, its price. Keyed by model
 * id, from the person's own settings (`fathom.modelOverrides`) or a CLI file.
 */
import { z } from "zod";

export const ModelPriceSchema = z
  .object({
    /** US dollars per million tokens. */
    input: z.number().min(0),
    output: z.number().min(0),
    cacheRead: z.number().min(0).optional(),
    cacheWrite: z.number().min(0).optional(),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

export const ModelOverrideSchema = z
  .object({
    contextWindow: z.number().int().min(1024).max(100_000_000).optional(),
    /**
     * `native`: the API's tool calling; `text`: tools in the prompt, calls read from text; `none`:
     * no tools; `constrained`: one schema-held JSON call or answer a turn. Unset: by size (modelFit.ts).
     */
    tools: z.enum(["native", "text", "none", "constrained"]).optional(),
    /** `small`: a short system prompt and only the core tools; `full`: everything. Unset: by size and context. */
    profile: z.enum(["small", "full"]).optional(),
    /** Sampling temperature sent with every request (constrained turns send 0 unless this says otherwise). */
    temperature: z.number().min(0).max(2).optional(),
    /** A sampling seed sent with every request, for servers that take one. */
    seed: z.number().int().optional(),
    images: z.boolean().optional(),
    price: ModelPriceSchema.optional(),
    /** Anthropic: extended thinking with this budget of tokens. */
    thinkingBudget: z.number().int().min(1024).optional(),
  })
  .strict();
export type ModelOverride = z.infer<typeof ModelOverrideSchema>;

export type ModelOverrides = Record<string, ModelOverride>;

/**
 * The valid entries of a settings value, and a sentence for each one left out (so the person
 * learns why their override did nothing instead of guessing).
 */
export function parseModelOverrides(value: unknown): { overrides: ModelOverrides; problems: string[] } {
  const overrides: ModelOverrides = {};
  const problems: string[] = [];
  if (value === undefined || value === null) return { overrides, problems };
  if (typeof value !== "object" || Array.isArray(value)) {
    return {
      overrides,
      problems: [
        'fathom.modelOverrides must be an object keyed by model id, for example {"qwen2.5-coder:14b": {"contextWindow": 32768, "tools": "text"}}.',
      ],
    };
  }
  for (const [id, entry] of Object.entries(value as Record<string, unknown>)) {
    const parsed = ModelOverrideSchema.safeParse(entry);
    if (parsed.success) overrides[id] = parsed.data;
    else {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `.${issue.path.join(".")}` : "";
      problems.push(
        `fathom.modelOverrides["${id}"]${where}: ${issue?.message ?? "invalid"}. This override is ignored.`,
      );
    }
  }
  return { overrides, problems };
}

/** The override for `model`: by its exact id, else ignoring letter case. */
export function overrideFor(overrides: ModelOverrides | undefined, model: string): ModelOverride | undefined {
  if (!overrides) return undefined;
  if (Object.hasOwn(overrides, model)) return overrides[model];
  const lower = model.toLowerCase();
  const key = Object.keys(overrides).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : overrides[key];
}
