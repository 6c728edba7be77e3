import * as vscode from "vscode";

export type KeyedProvider = "openai" | "anthropic" | "openai-compatible";

const ENV_FALLBACK: Record<KeyedProvider, string | undefined> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  // Local servers (Ollama, LM Studio, vLLM) usually need no key; OpenRouter-style ones do.
  "openai-compatible": "OPENAI_API_KEY",
};

/**
 * API keys live in VS Code's SecretStorage, one per provider, with the environment variable
 * as a fallback. Keys never go to settings, logs, the webview or saved tasks.
 */
export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(provider: KeyedProvider): Promise<string | undefined> {
    const stored = await this.secrets.get(secretName(provider));
    if (stored) return stored;
    const envName = ENV_FALLBACK[provider];
    return envName ? process.env[envName] || undefined : undefined;
  }

  async set(provider: KeyedProvider, key: string): Promise<void> {
    await this.secrets.store(secretName(provider), key);
  }

  async clear(provider: KeyedProvider): Promise<void> {
    await this.secrets.delete(secretName(provider));
  }
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
  await store.set(picked.provider, key.trim());
  log.info(`Stored an API key for ${picked.provider}`);
  void vscode.window.showInformationMessage(`Fathom: saved the API key for ${picked.label}.`);
}
