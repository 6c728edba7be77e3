import * as vscode from "vscode";
import { z } from "zod";
import { endpointOrigin, readSettings } from "./settings";

export type KeyedProvider = "openai" | "anthropic" | "openai-compatible";

const ENV_FALLBACK: Record<KeyedProvider, string | undefined> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  // Local servers (Ollama, LM Studio, vLLM) usually need no key; OpenRouter-style ones do.
  "openai-compatible": "OPENAI_API_KEY",
};

/** A key and the endpoint origins the person has agreed to send it to. */
export interface ProviderKey {
  key: string;
  /** Where it may go; empty for a key from the environment (see `get`). */
  origins: string[];
  source: "stored" | "env";
}

const StoredKeySchema = z.object({ key: z.string().min(1), origins: z.array(z.string()) });

/**
 * API keys live in VS Code's SecretStorage, one per provider, each bound to the endpoint origin
 * it was saved for (and any the person confirmed since), with the environment variable as a
 * fallback. Keys never go to settings, logs, the webview or saved tasks.
 */
export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    /** The origin a key saved before keys were bound is taken to belong to. */
    private readonly legacyOrigin: (provider: KeyedProvider) => string = () => "",
  ) {}

  /**
   * The stored key, or the environment's. An environment key is the person's own set-up, and
   * the base URL it goes to is a user-level setting a workspace cannot change, so it is not bound.
   */
  async get(provider: KeyedProvider): Promise<ProviderKey | undefined> {
    const raw = await this.stored(secretName(provider));
    if (raw) {
      const parsed = parseStored(raw);
      if (parsed) return { ...parsed, source: "stored" };
      // A plain key from before keys were bound to an origin.
      const origin = this.legacyOrigin(provider);
      return { key: raw, origins: origin ? [origin] : [], source: "stored" };
    }
    const envName = ENV_FALLBACK[provider];
    const env = envName ? process.env[envName] : undefined;
    return env ? { key: env, origins: [], source: "env" } : undefined;
  }

  /**
   * Secret storage answers through the window (a round trip on the way to every request): what
   * it holds is kept here, and forgotten when it changes (here, another window, or the person).
   */
  private readonly cache = new Map<string, Promise<string | undefined>>();
  private watching: { dispose(): void } | undefined;

  private stored(name: string): Promise<string | undefined> {
    this.watching ??= this.secrets.onDidChange?.((e) => this.cache.delete(e.key));
    let value = this.cache.get(name);
    if (!value) {
      value = Promise.resolve(this.secrets.get(name)).catch((error: unknown) => {
        this.cache.delete(name);
        throw error;
      });
      if (this.watching) this.cache.set(name, value);
    }
    return value;
  }

  async set(provider: KeyedProvider, key: string, origin: string): Promise<void> {
    this.cache.delete(secretName(provider));
    await this.secrets.store(secretName(provider), JSON.stringify({ key, origins: [origin] }));
    this.cache.delete(secretName(provider));
  }

  /** Records the person's "yes" to sending the stored key to `origin` too. */
  async allowOrigin(provider: KeyedProvider, origin: string): Promise<void> {
    const current = await this.get(provider);
    if (!current || current.source !== "stored" || current.origins.includes(origin)) return;
    this.cache.delete(secretName(provider));
    await this.secrets.store(
      secretName(provider),
      JSON.stringify({ key: current.key, origins: [...current.origins, origin] }),
    );
    this.cache.delete(secretName(provider));
  }

  async clear(provider: KeyedProvider): Promise<void> {
    this.cache.delete(secretName(provider));
    await this.secrets.delete(secretName(provider));
    this.cache.delete(secretName(provider));
  }
}

function parseStored(raw: string): { key: string; origins: string[] } | undefined {
  if (!raw.startsWith("{")) return undefined;
  try {
    const parsed = StoredKeySchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a key may be sent to `origin` without asking: an environment key, or a confirmed origin. */
export function keyAllowedFor(key: ProviderKey, origin: string): boolean {
  return key.source === "env" || key.origins.includes(origin);
}

function secretName(provider: KeyedProvider): string {
  return `fathom.apiKey.${provider}`;
}

/** "Fathom: Set API Key": pick the provider, paste the key (hidden), store it. */
export async function promptForApiKey(store: ApiKeyStore, log: vscode.LogOutputChannel): Promise<void> {
  const current = vscode.workspace.getConfiguration("fathom").get<KeyedProvider>("provider", "openai");
  const items: (vscode.QuickPickItem & { provider: KeyedProvider })[] = [
    { label: "OpenAI", provider: "openai", description: "api.openai.com" },
    { label: "Anthropic", provider: "anthropic", description: "api.anthropic.com" },
    { label: "OpenAI-compatible", provider: "openai-compatible", description: "OpenRouter, vLLM, a hosted gateway…" },
  ];
  const picked = await vscode.window.showQuickPick(
    items.map((item) => ({ ...item, picked: item.provider === current })),
    { title: "Fathom: Set API Key", placeHolder: "Which provider is the key for?" },
  );
  if (!picked) return;
  const key = await vscode.window.showInputBox({
    title: `Fathom: API key for ${picked.label}`,
    prompt: "Stored in VS Code's secret storage, never in settings. Leave empty to remove the stored key.",
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return;
  if (key.trim() === "") {
    await store.clear(picked.provider);
    log.info(`Removed the stored API key for ${picked.provider}`);
    void vscode.window.showInformationMessage(`Fathom: removed the API key for ${picked.label}.`);
    return;
  }
  // Bound to where the person's own settings send requests now.
  const origin = endpointOrigin(picked.provider, readSettings(vscode.workspace.getConfiguration("fathom")).baseUrl);
  await store.set(picked.provider, key.trim(), origin);
  log.info(`Stored an API key for ${picked.provider}, for ${origin}`);
  void vscode.window.showInformationMessage(
    `Fathom: saved the API key for ${picked.label}; it is sent only to ${origin} unless you allow another host.`,
  );
}

/**
 * "Send Key to This Host": the person's one-time yes to sending a stored key to a host other
 * than the one it was saved for. Modal, and says where it was saved for.
 */
export async function confirmKeyForHost(store: ApiKeyStore, log: vscode.LogOutputChannel): Promise<boolean> {
  const settings = readSettings(vscode.workspace.getConfiguration("fathom"));
  const provider = settings.provider;
  if (provider === "vscode") return true; // VS Code's models take no key of ours
  const origin = endpointOrigin(provider, settings.baseUrl);
  const current = await store.get(provider);
  if (!current || keyAllowedFor(current, origin)) return true;
  const send = "Send Key to This Host";
  const answer = await vscode.window.showWarningMessage(
    `Send your ${provider} API key to ${origin}?`,
    {
      modal: true,
      detail: `The key was saved for ${current.origins.join(", ") || "another host"}. Your Base Url setting now points to ${origin}. Only send it if you chose this server yourself.`,
    },
    send,
  );
  if (answer !== send) return false;
  await store.allowOrigin(provider, origin);
  log.info(`The ${provider} key may now be sent to ${origin}`);
  return true;
}
