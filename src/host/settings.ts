import type { ApprovalPolicy, CommandPatterns, Provider } from "../core";

/**
 * The `fathom.*` settings, read afresh at each task start so a change applies without a reload.
 * Pure: the caller passes `vscode.workspace.getConfiguration("fathom")` (or a fake in tests).
 */

export interface FathomSettings {
  provider: Provider;
  model: string;
  baseUrl: string;
  maxSteps: number;
  autoApprove: { read: boolean; edit: boolean; execute: boolean };
  commands: { allow: string[]; deny: string[]; timeoutSeconds: number };
}

/** What `vscode.WorkspaceConfiguration` offers that we use. */
export interface ConfigSource {
  get<T>(key: string, defaultValue: T): T;
}

const PROVIDERS: readonly Provider[] = ["openai", "anthropic", "openai-compatible"];
export const DEFAULT_MAX_STEPS = 100;
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 120;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : [];
}

export function readSettings(config: ConfigSource): FathomSettings {
  const provider = config.get<string>("provider", "openai");
  const maxSteps = config.get<number>("maxSteps", DEFAULT_MAX_STEPS);
  const timeout = config.get<number>("commands.timeoutSeconds", DEFAULT_COMMAND_TIMEOUT_SECONDS);
  return {
    provider: PROVIDERS.includes(provider as Provider) ? (provider as Provider) : "openai",
    model: String(config.get<string>("model", "") ?? "").trim(),
    baseUrl: String(config.get<string>("baseUrl", "") ?? "").trim(),
    maxSteps: Number.isInteger(maxSteps) && maxSteps >= 1 ? Math.min(maxSteps, 1000) : DEFAULT_MAX_STEPS,
    autoApprove: {
      read: config.get<boolean>("autoApprove.read", true) !== false,
      edit: config.get<boolean>("autoApprove.edit", false) === true,
      execute: config.get<boolean>("autoApprove.execute", false) === true,
    },
    commands: {
      allow: strings(config.get<unknown>("commands.allow", [])),
      deny: strings(config.get<unknown>("commands.deny", [])),
      timeoutSeconds: Number.isFinite(timeout) && timeout >= 1 ? Math.min(timeout, 3600) : DEFAULT_COMMAND_TIMEOUT_SECONDS,
    },
  };
}

const PROVIDER_NAMES: Record<Provider, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  "openai-compatible": "the OpenAI-compatible server",
};
const KEY_ENV: Record<Provider, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  "openai-compatible": "OPENAI_API_KEY",
};

export function providerName(provider: Provider): string {
  return PROVIDER_NAMES[provider];
}

export interface SetupProblem {
  message: string;
  action?: "fathom.setApiKey" | "fathom.openSettings";
  actionLabel?: string;
}

/**
 * What keeps a task from starting, said so the person can fix it, or null. Only the official
 * OpenAI and Anthropic endpoints need a key for sure; a custom base URL or a local server may not.
 */
export function setupProblemFor(settings: FathomSettings, hasKey: boolean): SetupProblem | null {
  if (settings.baseUrl !== "" && !/^https?:\/\/[^\s/]+/i.test(settings.baseUrl)) {
    return {
      message: `fathom.baseUrl "${settings.baseUrl}" is not an http(s) URL. Fix it in the settings, or leave it empty for the official endpoint.`,
      action: "fathom.openSettings",
      actionLabel: "Open Settings",
    };
  }
  if (hasKey || settings.provider === "openai-compatible" || settings.baseUrl !== "") return null;
  return {
    message: `No API key for ${PROVIDER_NAMES[settings.provider]}. Run "Fathom: Set API Key" (stored in VS Code's secret storage) or set ${KEY_ENV[settings.provider]} in the environment, or pick another provider in the settings.`,
    action: "fathom.setApiKey",
    actionLabel: "Set API Key",
  };
}

/**
 * The approval policy and command patterns for a task. In Restricted Mode edits and commands
 * always go to the gate (which refuses them), and the allow list is ignored so nothing runs
 * unasked.
 */
export function approvalFor(settings: FathomSettings, restricted: boolean): { policy: ApprovalPolicy; commands: CommandPatterns } {
  const mode = (auto: boolean) => (auto ? "auto" : "ask") as "auto" | "ask";
  if (restricted) {
    return {
      policy: { read: mode(settings.autoApprove.read), edit: "ask", execute: "ask", other: "auto" },
      commands: { allow: [], deny: settings.commands.deny },
    };
  }
  return {
    policy: {
      read: mode(settings.autoApprove.read),
      edit: mode(settings.autoApprove.edit),
      execute: mode(settings.autoApprove.execute),
      other: "auto",
    },
    commands: { allow: settings.commands.allow, deny: settings.commands.deny },
  };
}
