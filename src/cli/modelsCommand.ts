/**
 * `fathom models [--provider P] [--base-url URL] [--json]`: the models the provider lists, with
 * context window and price where known (the same list as the picker in VS Code).
 */
import { listModels, type ListedModel } from "../core/model/listModels";
import { HELP_OPTION, parseCommandArgs, providerAndBaseUrl, SERVER_OPTIONS } from "./commandArgs";

export const MODELS_USAGE = `Usage: fathom models [--provider openai|anthropic|openai-compatible] [--base-url URL] [--json]

Lists the models the provider offers (OpenAI and OpenAI-compatible servers: GET /v1/models;
Anthropic: its models list; Ollama: its tags), with context window and price per million
tokens where known. Keys come from OPENAI_API_KEY or ANTHROPIC_API_KEY.`;

export class ModelsUsageError extends Error {}

interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

export async function modelsCommand(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    { ...SERVER_OPTIONS, json: { type: "boolean" }, ...HELP_OPTION },
    ModelsUsageError,
    false,
  );
  if (values.help) {
    io.out.write(`${MODELS_USAGE}\n`);
    return 0;
  }
  const { provider, baseUrl } = providerAndBaseUrl(
    values,
    env,
    ModelsUsageError,
    "VS Code's language models (provider vscode) are listed by the Model picker inside VS Code; here use --provider openai, anthropic or openai-compatible.",
  );
  const apiKey = (provider === "anthropic" ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY) ?? "";
  if (!apiKey && !baseUrl && provider !== "openai-compatible") {
    throw new ModelsUsageError(
      `Set ${provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"} to list ${provider}'s models.`,
    );
  }
  const list = await listModels({ provider, ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) });
  if (values.json) io.out.write(`${JSON.stringify(list)}\n`);
  else if (list.models.length > 0) io.out.write(formatTable(list.models));
  if (list.error) io.err.write(`fathom: ${list.error}\n`);
  return list.error && list.models.length === 0 ? 1 : 0;
}

/** Aligned columns: model, context window, $ in / out per million tokens, what it reads and calls. */
export function formatTable(models: readonly ListedModel[]): string {
  const rows = models.map((m) => [
    m.id,
    m.contextWindow ? formatTokens(m.contextWindow) : "?",
    m.price ? `$${formatPrice(m.price.input)} / $${formatPrice(m.price.output)}` : "?",
    [m.images ? "images" : "", m.tools === false ? "no native tools" : ""].filter(Boolean).join(", "),
  ]);
  const head = ["MODEL", "CONTEXT", "$/MTOK IN / OUT", ""];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return (
    [head, ...rows]
      .map((r) =>
        r
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join("  ")
          .trimEnd(),
      )
      .join("\n") + "\n"
  );
}

function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(2))}M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)}K`;
  return String(n);
}

function formatPrice(n: number): string {
  return n >= 1 ? n.toFixed(2) : Number(n.toPrecision(2)).toString();
}
