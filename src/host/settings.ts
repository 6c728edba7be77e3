import {
  APPROVAL_LEVELS,
  OPENAI_COMPATIBLE_DEFAULT_BASE_URL,
  AUTOPILOT_DEFAULT_MAX_STEPS,
  AUTOPILOT_DEFAULT_SPEND_CAP_USD,
  parseModelOverrides,
  resolveApprovalLevel,
  type ResolvedLevel,
  type ApprovalPolicy,
  type CommandPatterns,
  type ModelOverrides,
  type Provider,
} from "../core";

/** Where models come from: an HTTP API, or VS Code's own language models (Copilot's, or any extension's). */
export type HostProvider = Provider | "vscode";

/**
 * The `fathom.*` settings, read afresh at each task start so a change applies without a reload.
 * Pure: the caller passes `vscode.workspace.getConfiguration("fathom")` (or a fake in tests).
 */

export interface FathomSettings {
  provider: HostProvider;
  model: string;
  baseUrl: string;
  maxSteps: number;
  /** Stop a task when its spend reaches this many US dollars (undefined: no cap, but Autopilot's). */
  spendCapUsd: number | undefined;
  /** `fathom.approvals`: the person's level, lowered by the workspace's (./core/trust/approvalLevels.ts). */
  approvals: ResolvedLevel;
  /** Autopilot's budget: the person's step limit and spend cap when set, else 50 calls and $2 (a workspace may lower them). */
  autopilot: { maxSteps: number; spendCapUsd: number };
  /** Subagents running at once. */
  maxParallelSubagents: number;
  /** Additions to and `!` removals from the built-in secret-file list (user settings only). */
  secretFiles: string[];
  /** The OS sandbox for commands (user settings only). */
  sandbox: { enabled: boolean; autoApprove: boolean; allowedDomains: string[]; denyRead: string[] };
  autoApprove: { read: boolean; edit: boolean; execute: boolean };
  commands: { allow: string[]; deny: string[]; timeoutSeconds: number };
  /**
   * The command `run_tests` runs instead of the one it finds ("" when unset). A workspace may set
   * it: it runs only as any command does, shown and asked unless the person allowed it.
   */
  testCommand: string;
  /**
   * What the person set for models the table does not know (user settings only: a workspace
   * could otherwise price a model at $0 to slip past the spend cap, or send images where they asked for none).
   */
  modelOverrides: ModelOverrides;
  /** Entries of fathom.modelOverrides that were left out, and why. */
  modelOverrideProblems: string[];
  /** Settings a workspace tried to set that only the person's user settings may set. */
  ignoredFromWorkspace: string[];
}

/** What `vscode.WorkspaceConfiguration` offers that we use. */
export interface ConfigSource {
  get<T>(key: string, defaultValue: T): T;
  /** Where each value comes from; without it (tests, the CLI) every value counts as the person's. */
  inspect?<T>(key: string): { globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T } | undefined;
}

/**
 * Settings that widen what Fathom may do unasked, or decide where the person's key and code are
 * sent. A cloned repository's `.vscode/settings.json` must not set them, so only the user value
 * counts (package.json also declares them `application`-scoped, which hides them from the
 * workspace tab of the Settings editor).
 */
export const USER_ONLY_SETTINGS = [
  "provider",
  "baseUrl",
  "autoApprove.read",
  "autoApprove.edit",
  "autoApprove.execute",
  "commands.allow",
  "sandbox.enabled",
  "sandbox.autoApprove",
  "sandbox.allowedDomains",
  "modelOverrides",
  "memory.allowWrites",
] as const;

/** The person's own value of a user-only setting (a workspace value never counts). */
function userValue<T>(config: ConfigSource, key: string, fallback: T): T {
  if (!config.inspect) return config.get(key, fallback);
  const value = config.inspect<T>(key)?.globalValue;
  return value === undefined ? fallback : value;
}

function workspaceValues<T>(config: ConfigSource, key: string): T[] {
  const info = config.inspect?.<T>(key);
  return info ? [info.workspaceValue, info.workspaceFolderValue].filter((v): v is T => v !== undefined) : [];
}

const PROVIDERS: readonly HostProvider[] = ["openai", "anthropic", "openai-compatible", "vscode"];
export const DEFAULT_MAX_STEPS = 100;
export const DEFAULT_MAX_PARALLEL_SUBAGENTS = 4;
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 120;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : [];
}

/** The person's choice; a workspace may only turn auto-approval off (that narrows). */
function autoApproved(config: ConfigSource, key: string, fallback: boolean): boolean {
  return userValue<boolean>(config, key, fallback) === true && !workspaceValues<boolean>(config, key).includes(false);
}

const validSteps = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 1;

/** A limit a workspace may lower but not raise: the lowest valid of the user's and the workspace's values. */
function lowest(config: ConfigSource, key: string, fallback: number, max: number): number {
  const user = config.inspect ? userValue<number>(config, key, fallback) : config.get<number>(key, fallback);
  const values = [user, ...workspaceValues<number>(config, key)].filter(validSteps);
  return values.length > 0 ? Math.min(...values, max) : fallback;
}

/**
 * The person's value of a limit (`unset` when they set none or an invalid one), lowered by the
 * workspace's valid values (undefined: no limit at all).
 */
function personLimit(
  config: ConfigSource,
  key: string,
  valid: (n: unknown) => n is number,
  unset?: number,
): number | undefined {
  const own = config.inspect
    ? config.inspect<number>(key)?.globalValue
    : config.get<number | undefined>(key, undefined);
  const values = [valid(own) ? own : unset, ...workspaceValues<number>(config, key)].filter(valid);
  return values.length > 0 ? Math.min(...values) : undefined;
}

const validDollars = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n > 0;

/** The level: the person's, lowered (never raised) by the workspace's and the folder's. */
function approvalLevel(config: ConfigSource): ResolvedLevel {
  if (!config.inspect) return resolveApprovalLevel({ user: config.get<unknown>("approvals", undefined) });
  const info = config.inspect<unknown>("approvals");
  return resolveApprovalLevel({
    user: info?.globalValue,
    workspace: info?.workspaceValue,
    folder: info?.workspaceFolderValue,
  });
}

export function readSettings(config: ConfigSource): FathomSettings {
  // Which endpoint (and which stored or environment key) requests go to is the person's choice.
  const provider = userValue<string>(config, "provider", "openai");
  // A workspace may lower the step limit (it costs the person money), never raise it.
  const userSteps = config.inspect
    ? userValue<number>(config, "maxSteps", DEFAULT_MAX_STEPS)
    : config.get<number>("maxSteps", DEFAULT_MAX_STEPS);
  const steps = [userSteps, ...workspaceValues<number>(config, "maxSteps")].filter(validSteps);
  const timeout = config.get<number>("commands.timeoutSeconds", DEFAULT_COMMAND_TIMEOUT_SECONDS);
  // A workspace may add deny patterns (that only narrows), so they are all kept.
  const deny = config.inspect
    ? [
        config.inspect<unknown>("commands.deny")?.globalValue,
        ...workspaceValues<unknown>(config, "commands.deny"),
      ].flatMap(strings)
    : strings(config.get<unknown>("commands.deny", []));
  const overrides = parseModelOverrides(userValue<unknown>(config, "modelOverrides", {}));
  return {
    provider: PROVIDERS.includes(provider as HostProvider) ? (provider as HostProvider) : "openai",
    model: String(config.get<string>("model", "") ?? "").trim(),
    baseUrl: String(userValue<string>(config, "baseUrl", "") ?? "").trim(),
    maxSteps: steps.length > 0 ? Math.min(...steps, 1000) : DEFAULT_MAX_STEPS,
    spendCapUsd: personLimit(config, "spendCapUsd", validDollars),
    approvals: approvalLevel(config),
    // A workspace's lower limit counts even where the person set none; a higher one never does.
    autopilot: {
      maxSteps: personLimit(config, "maxSteps", validSteps, AUTOPILOT_DEFAULT_MAX_STEPS)!,
      spendCapUsd: personLimit(config, "spendCapUsd", validDollars, AUTOPILOT_DEFAULT_SPEND_CAP_USD)!,
    },
    maxParallelSubagents: lowest(config, "maxParallelSubagents", DEFAULT_MAX_PARALLEL_SUBAGENTS, 16),
    sandbox: {
      enabled: userValue<boolean>(config, "sandbox.enabled", true) !== false,
      autoApprove: userValue<boolean>(config, "sandbox.autoApprove", false) === true,
      allowedDomains: strings(userValue<unknown>(config, "sandbox.allowedDomains", [])),
      denyRead: strings(userValue<unknown>(config, "sandbox.denyRead", [])),
    },
    // A workspace may add secret files (that narrows) but not exempt any.
    secretFiles: [
      ...strings(userValue<unknown>(config, "secretFiles", [])),
      ...workspaceValues<unknown>(config, "secretFiles")
        .flatMap(strings)
        .filter((p) => !p.trim().startsWith("!")),
    ],
    autoApprove: {
      read: autoApproved(config, "autoApprove.read", true),
      edit: autoApproved(config, "autoApprove.edit", false),
      execute: autoApproved(config, "autoApprove.execute", false),
    },
    commands: {
      allow: strings(userValue<unknown>(config, "commands.allow", [])),
      deny: [...new Set(deny)],
      timeoutSeconds:
        Number.isFinite(timeout) && timeout >= 1 ? Math.min(timeout, 3600) : DEFAULT_COMMAND_TIMEOUT_SECONDS,
    },
    testCommand: String(config.get<string>("testCommand", "") ?? "").trim(),
    modelOverrides: overrides.overrides,
    modelOverrideProblems: overrides.problems,
    ignoredFromWorkspace: [
      ...USER_ONLY_SETTINGS.filter((key) => {
        // Only a value that would have widened something is worth telling the person about.
        const tried = workspaceValues<unknown>(config, key);
        return key.startsWith("autoApprove.") ? tried.some((v) => v !== false) : tried.length > 0;
      }).map((key) => `fathom.${key}`),
      ...(raisesLevel(config) ? ["fathom.approvals"] : []),
    ],
  };
}

/** A workspace or folder asked for a higher level than the person's (ignored: it may only lower it). */
function raisesLevel(config: ConfigSource): boolean {
  const chosen = approvalLevel(config).chosen;
  return workspaceValues<unknown>(config, "approvals").some(
    (v) => APPROVAL_LEVELS.indexOf(v as never) > APPROVAL_LEVELS.indexOf(chosen),
  );
}

const OFFICIAL_BASE_URLS: Record<HostProvider, string> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
  "openai-compatible": OPENAI_COMPATIBLE_DEFAULT_BASE_URL,
  // Requests go through VS Code's language model API; no key, no URL of ours.
  vscode: "vscode://language-models",
};

/** The origin (scheme, host, port) requests go to, which a stored key is bound to. */
export function endpointOrigin(provider: HostProvider, baseUrl: string): string {
  try {
    return new URL(baseUrl || OFFICIAL_BASE_URLS[provider]).origin;
  } catch {
    return new URL(OFFICIAL_BASE_URLS[provider]).origin;
  }
}

const PROVIDER_NAMES: Record<HostProvider, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  "openai-compatible": "the OpenAI-compatible server",
  vscode: "VS Code's language models",
};
const KEY_ENV: Record<Provider, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  "openai-compatible": "OPENAI_API_KEY",
};

export function providerName(provider: HostProvider): string {
  return PROVIDER_NAMES[provider];
}

export interface SetupProblem {
  message: string;
  action?: "fathom.setApiKey" | "fathom.openSettings" | "fathom.allowKeyForHost";
  actionLabel?: string;
}

/**
 * What keeps a task from starting, said so the person can fix it, or null. Only the official
 * OpenAI and Anthropic endpoints need a key for sure; a custom base URL or a local server may not.
 */
export function setupProblemFor(settings: FathomSettings, hasKey: boolean): SetupProblem | null {
  // VS Code's models need no key or URL; whether one is there is asked of VS Code (see vscodeLm.ts).
  if (settings.provider === "vscode") return null;
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
export type SandboxState = "on" | "off" | "unavailable";

export const SANDBOX_UNAVAILABLE_REASON =
  "The OS sandbox cannot run here, so this command would run with your full rights (files, keys, network).";

/**
 * `sandbox`: "on" when commands run in the OS sandbox, "off" when the person turned it off,
 * "unavailable" when it is on but cannot run here: then every command is asked (never
 * unsandboxed auto-approval), whatever auto-approve and the allow list say.
 */
export function approvalFor(
  settings: FathomSettings,
  restricted: boolean,
  sandbox: SandboxState = "off",
): { policy: ApprovalPolicy; commands: CommandPatterns } {
  const mode = (auto: boolean) => (auto ? "auto" : "ask") as "auto" | "ask";
  if (!restricted && sandbox === "unavailable") {
    return {
      policy: {
        read: mode(settings.autoApprove.read),
        edit: mode(settings.autoApprove.edit),
        execute: "ask",
        other: "auto",
      },
      // Not even "Always allow" rules answer for a command then.
      commands: { allow: [], deny: settings.commands.deny, alwaysAsk: SANDBOX_UNAVAILABLE_REASON },
    };
  }
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
      execute: mode(settings.autoApprove.execute || (sandbox === "on" && settings.sandbox.autoApprove)),
      other: "auto",
    },
    commands: { allow: settings.commands.allow, deny: settings.commands.deny },
  };
}
