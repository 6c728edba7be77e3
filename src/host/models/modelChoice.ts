import type { ListedModel, ModelOverride } from "../../core";
import type { FathomSettings, HostProvider } from "../settings";

/** What VS Code's `workspaceState` offers that we use (a fake in unit tests). */
export interface ChoiceMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = "fathom.modelChoice";

/** The pick, the `fathom.model` setting it was made over, and what the provider's list said of it. */
interface Pick {
  model: string;
  setting: string;
  known?: ModelOverride;
}
type Choices = Partial<Record<HostProvider, Pick>>;

/**
 * The model picked in the chat's Model box, saved for this workspace and per provider. A model
 * choice widens nothing (where requests go is the user-level Base Url), so the workspace's
 * storage may hold it. It stands until the person changes `fathom.model` itself: then the
 * setting, being newer, wins. What the provider's list said of the model (Ollama: its context
 * length, whether it reads images, whether it has tool calling) is kept with it, under the
 * person's own overrides.
 */
export class ModelChoice {
  constructor(private readonly memento: ChoiceMemento) {}

  /** `settings` with this workspace's pick for its provider, if it still stands. */
  apply(settings: FathomSettings): FathomSettings {
    const pick = this.memento.get<Choices>(KEY)?.[settings.provider];
    if (!pick || pick.setting !== settings.model) return settings;
    const mine = settings.modelOverrides[pick.model];
    const overrides = pick.known
      ? { ...settings.modelOverrides, [pick.model]: { ...pick.known, ...mine } }
      : settings.modelOverrides;
    return { ...settings, model: pick.model, modelOverrides: overrides };
  }

  async set(settings: FathomSettings, model: string, listed?: ListedModel): Promise<void> {
    const choices = { ...(this.memento.get<Choices>(KEY) ?? {}) };
    const known = listed && listed.id === model ? knownOf(listed) : undefined;
    choices[settings.provider] = { model: model.trim(), setting: settings.model, ...(known ? { known } : {}) };
    await this.memento.update(KEY, choices);
  }
}

/** What a listing says that Fathom would otherwise guess: a window, images, no native tools, a price. */
function knownOf(m: ListedModel): ModelOverride | undefined {
  const known: ModelOverride = {
    ...(m.contextWindow && m.contextWindow >= 1024 ? { contextWindow: Math.round(m.contextWindow) } : {}),
    ...(m.images !== undefined ? { images: m.images } : {}),
    ...(m.tools === false ? { tools: "text" as const } : {}),
    ...(m.price ? { price: m.price } : {}),
  };
  return Object.keys(known).length ? known : undefined;
}
