/**
 * What the CLI's subcommands read alike: their arguments, parsed strictly (a wrong one is the
 * command's own usage error), and the provider and base URL of the commands that ask a model.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { createModel, type Provider } from "../core/model/createModel";
import type { ChatModel } from "../core/model/types";
import { EXIT } from "./exitCodes";

type UsageErrorClass = new (message: string) => Error;
type Options = NonNullable<ParseArgsConfig["options"]>;

/** `argv` parsed strictly against `options`; a parse error is thrown as `UsageError` with its message. */
export function parseCommandArgs<O extends Options, P extends boolean = true>(
  argv: readonly string[],
  options: O,
  UsageError: UsageErrorClass,
  allowPositionals: P = true as P,
) {
  try {
    return parseArgs({ args: [...argv], allowPositionals, strict: true, options });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `-h`/`--help`, which every subcommand takes. */
export const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;

/** Which model server a command asks: read by `providerAndBaseUrl`. */
export const SERVER_OPTIONS = { provider: { type: "string" }, "base-url": { type: "string" } } as const;

export const PROVIDERS: readonly Provider[] = ["openai", "anthropic", "openai-compatible"];

/**
 * `--provider` (default: anthropic when only its key is set, else openai) and `--base-url`, checked;
 * `vscodeMessage` says where VS Code's own models (provider vscode) can be used instead.
 */
export function providerAndBaseUrl(
  values: { provider?: string | undefined; "base-url"?: string | undefined },
  env: NodeJS.ProcessEnv,
  UsageError: UsageErrorClass,
  vscodeMessage: string,
): { provider: Provider; baseUrl: string } {
  const provider = (values.provider ??
    (!env.OPENAI_API_KEY && env.ANTHROPIC_API_KEY ? "anthropic" : "openai")) as Provider;
  if ((provider as string) === "vscode") throw new UsageError(vscodeMessage);
  if (!PROVIDERS.includes(provider))
    throw new UsageError(`--provider must be one of ${PROVIDERS.join(", ")} (got "${provider}").`);
  const baseUrl = values["base-url"] ?? "";
  if (baseUrl) {
    try {
      new URL(baseUrl);
    } catch {
      throw new UsageError(`--base-url "${baseUrl}" is not a URL; for example http://localhost:11434/v1`);
    }
  }
  return { provider, baseUrl };
}

/** `--model` and `--context-window`, which the commands that ask a model once take beside the server's options. */
export const MODEL_OPTIONS = { model: { type: "string" }, "context-window": { type: "string" } } as const;

/**
 * The model a one-shot command (`commit-message`, `review`) asks: the provider and base URL as
 * `providerAndBaseUrl` reads them, `--model`, `--context-window` (checked), the provider's key
 * from the environment (a missing one is a usage error saying what to set). `apiKey` is returned
 * so the command can keep it out of what it prints.
 */
export function commandModel(
  values: {
    provider?: string | undefined;
    "base-url"?: string | undefined;
    model?: string | undefined;
    "context-window"?: string | undefined;
  },
  env: NodeJS.ProcessEnv,
  UsageError: UsageErrorClass,
  vscodeMessage: string,
): { model: ChatModel; apiKey: string } {
  const { provider, baseUrl } = providerAndBaseUrl(values, env, UsageError, vscodeMessage);
  let contextWindow: number | undefined;
  if (values["context-window"] !== undefined) {
    contextWindow = Number(values["context-window"]);
    if (!Number.isInteger(contextWindow) || contextWindow < 1024)
      throw new UsageError(
        `--context-window must be a whole number of tokens, at least 1024 (got "${values["context-window"]}").`,
      );
  }
  const apiKey = (provider === "anthropic" ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY) ?? "";
  if (!apiKey && provider !== "openai-compatible") {
    throw new UsageError(
      `Set ${provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"} to your ${provider} API key (or use --provider openai-compatible --base-url URL for a local server).`,
    );
  }
  const retryBase = Number(env.FATHOM_RETRY_BASE_DELAY_MS);
  const model = createModel({
    provider,
    model: values.model ?? "",
    ...(baseUrl ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(contextWindow ? { contextWindow } : {}),
    ...(env.FATHOM_RETRY_BASE_DELAY_MS && Number.isFinite(retryBase) && retryBase >= 0
      ? { retryBaseDelayMs: retryBase }
      : {}),
    surface: "cli",
  });
  return { model, apiKey };
}

/** What a subcommand reads and writes: the process's, or a test's. */
export interface CommandIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  /** Ends the command's work (Ctrl+C). */
  signal?: AbortSignal;
}

/**
 * A subcommand as the process runs it: Ctrl+C or SIGTERM cancels it (through `signal`), and its
 * own usage error is printed with its usage and exits 2.
 */
export async function runAsProcess(
  command: (io: CommandIo) => Promise<number>,
  usage: { error: UsageErrorClass; text: string },
): Promise<number> {
  const controller = new AbortController();
  const cancel = () => controller.abort();
  process.on("SIGINT", cancel);
  process.on("SIGTERM", cancel);
  try {
    return await command({
      cwd: process.cwd(),
      env: process.env,
      out: process.stdout,
      err: process.stderr,
      signal: controller.signal,
    });
  } catch (error) {
    if (!(error instanceof usage.error)) throw error;
    process.stderr.write(`fathom: ${error.message}\n${usage.text}\n`);
    return EXIT.usage;
  } finally {
    process.off("SIGINT", cancel);
    process.off("SIGTERM", cancel);
  }
}
