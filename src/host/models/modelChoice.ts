import type { FathomSettings, HostProvider } from "../settings";

/** What VS Code's `workspaceState` offers that we use (a fake in unit tests). */
export interface ChoiceMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = "fathom.modelChoice";

/** The pick, and the `fathom.model` setting it was made over. */
type Choices = Partial<Record<HostProvider, { model: string; setting: string }>>;

/**
 * The model picked in the chat's Model box, saved for this workspace and per provider. A model
 * choice widens nothing (where requests go is the user-level Base Url), so the workspace's
 * storage may hold it. It stands until the person changes `fathom.model` itself: then the
 * setting, being newer, wins.
 */
export class ModelChoice {
  constructor(private readonly memento: ChoiceMemento) {}

  /** `settings` with this workspace's pick for its provider, if it still stands. */
  apply(settings: FathomSettings): FathomSettings {
    const pick = this.memento.get<Choices>(KEY)?.[settings.provider];
    return pick && pick.setting === settings.model ? { ...settings, model: pick.model } : settings;
  }

  async set(settings: FathomSettings, model: string): Promise<void> {
    const choices = { ...(this.memento.get<Choices>(KEY) ?? {}) };
    choices[settings.provider] = { model: model.trim(), setting: settings.model };
    await this.memento.update(KEY, choices);
  }
}
