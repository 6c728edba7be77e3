/** The action's inputs (action.yml), read from the runner's INPUT_* variables and checked. */
import type { Provider } from "../core/model/createModel";
import { readInput } from "./runnerIo";
import type { ModelSettings } from "./runTask";
import { parseAssociations } from "./trigger";

export interface ActionInputs {
  model: ModelSettings;
  githubToken: string;
  label: string;
  allowedAssociations: string[];
  prompt: string;
  maxSteps?: number;
  spendCapUsd?: number;
  allowDomains: string[];
  baseBranch: string;
}

const PROVIDERS: readonly Provider[] = ["openai", "anthropic", "openai-compatible"];

export function readActionInputs(env: NodeJS.ProcessEnv): ActionInputs | { error: string } {
  const provider = readInput(env, "provider") || "anthropic";
  if (!PROVIDERS.includes(provider as Provider))
    return { error: `Input provider must be one of ${PROVIDERS.join(", ")} (got "${provider}").` };
  const baseUrl = readInput(env, "base-url");
  if (baseUrl) {
    try {
      new URL(baseUrl);
    } catch {
      return { error: `Input base-url "${baseUrl}" is not a URL; for example https://openrouter.ai/api/v1` };
    }
  }
  if (provider === "openai-compatible" && !baseUrl)
    return { error: "Input base-url is needed with provider openai-compatible (the server's /v1 address)." };
  const githubToken = readInput(env, "github-token");
  if (!githubToken)
    return {
      error:
        "Input github-token is empty: leave it out (it defaults to the workflow's github.token) or pass a token with contents, pull-requests and issues write access.",
    };
  const associations = parseAssociations(readInput(env, "allowed-associations"));
  if ("error" in associations) return associations;
  const inputs: ActionInputs = {
    model: {
      provider: provider as Provider,
      model: readInput(env, "model"),
      ...(baseUrl ? { baseUrl } : {}),
      apiKey: readInput(env, "api-key"),
    },
    githubToken,
    label: readInput(env, "label") || "fathom",
    allowedAssociations: associations,
    prompt: readInput(env, "prompt"),
    allowDomains: readInput(env, "allow-domains")
      .split(/[\s,]+/)
      .filter(Boolean),
    baseBranch: readInput(env, "base-branch"),
  };
  const steps = readInput(env, "max-steps");
  if (steps) {
    const n = Number(steps);
    if (!Number.isInteger(n) || n < 1 || n > 10_000)
      return { error: `Input max-steps must be a whole number from 1 to 10000 (got "${steps}").` };
    inputs.maxSteps = n;
  }
  const cap = readInput(env, "spend-cap");
  if (cap) {
    const n = Number(cap);
    if (!Number.isFinite(n) || n <= 0)
      return { error: `Input spend-cap must be a positive number of US dollars (got "${cap}").` };
    inputs.spendCapUsd = n;
  }
  for (const domain of inputs.allowDomains) {
    if (!/^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(domain))
      return {
        error: `Input allow-domains: "${domain}" is not a domain; for example registry.npmjs.org or *.github.com`,
      };
  }
  return inputs;
}
