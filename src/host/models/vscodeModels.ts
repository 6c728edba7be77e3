/**
 * `fathom.provider: "vscode"`: which of VS Code's language models the person means, whether
 * there is any, and the list the Model box shows.
 */
import {
  failWith,
  ModelError,
  overrideFor,
  withToolCallMode,
  type ChatModel,
  type ListedModel,
  type ModelOverrides,
} from "../../core";
import type { SetupProblem } from "../settings";
import type { LmApi, LmChat } from "./lmApi";
import { VscodeLmModel } from "./vscodeLmModel";

export const NO_VSCODE_MODELS =
  "No language model is available in VS Code. Install GitHub Copilot Chat and sign in (or an extension that provides language models), then send again; or choose another provider in fathom.provider.";

export class VscodeModels {
  /** The models of the last look, by the id the person gives (`id` or `vendor/id`). */
  private chats: LmChat[] = [];

  /** `api` is the LM API, or the sentence saying why this VS Code has none. */
  constructor(private readonly api: LmApi | string) {}

  /** Asks VS Code for its models now. */
  async refresh(): Promise<LmChat[]> {
    if (typeof this.api === "string") return [];
    this.chats = [...(await this.api.selectChatModels())];
    return this.chats;
  }

  /** The model `wanted` names (empty: the first offered), or what keeps it from being used. */
  async resolve(wanted: string): Promise<{ chat: LmChat } | { problem: SetupProblem }> {
    if (typeof this.api === "string")
      return { problem: { message: this.api, action: "fathom.openSettings", actionLabel: "Open Settings" } };
    const chats = await this.refresh();
    if (chats.length === 0)
      return { problem: { message: NO_VSCODE_MODELS, action: "fathom.openSettings", actionLabel: "Open Settings" } };
    const chat = find(chats, wanted);
    if (chat) return { chat };
    const names = chats
      .slice(0, 8)
      .map((c) => idOf(c, chats))
      .join(", ");
    return {
      problem: {
        message: `The language model "${wanted}" is not available in VS Code (it offers ${names}${chats.length > 8 ? ", …" : ""}). Pick one in Model, at the top of the chat.`,
      },
    };
  }

  /** The ChatModel for `wanted` as last resolved; one that explains itself when there is none. */
  create(wanted: string, overrides: ModelOverrides): ChatModel {
    const chat = find(this.chats, wanted);
    if (!chat || typeof this.api === "string") {
      const why = typeof this.api === "string" ? this.api : NO_VSCODE_MODELS;
      return {
        provider: "vscode",
        model: wanted || "(no model)",
        contextWindow: 128_000,
        acceptsImages: false,
        stream: () => failWith(new ModelError("not_found", why, undefined, true)),
      };
    }
    const o = overrideFor(overrides, chat.id) ?? overrideFor(overrides, idOf(chat)) ?? {};
    const model = new VscodeLmModel({
      api: this.api,
      chat,
      ...(o.contextWindow ? { contextWindow: o.contextWindow } : {}),
      ...(o.images !== undefined ? { acceptsImages: o.images } : {}),
      ...(o.price ? { price: o.price } : {}),
    });
    // A model that says it cannot call tools gets them in the prompt.
    return withToolCallMode(model, o.tools ?? (chat.capabilities?.supportsToolCalling === false ? "text" : "native"));
  }

  /** The Model box's list: each model with its context window and whether it reads images. */
  async list(): Promise<{ models: ListedModel[]; error?: string }> {
    if (typeof this.api === "string") return { models: [], error: this.api };
    const chats = await this.refresh();
    const models = chats.map((c): ListedModel => ({
      id: idOf(c, chats),
      ...(c.name && c.name !== c.id ? { name: `${c.name} (${c.vendor})` } : { name: c.vendor }),
      ...(c.maxInputTokens > 0 ? { contextWindow: c.maxInputTokens } : {}),
      ...(c.capabilities?.supportsImageToText !== undefined ? { images: c.capabilities.supportsImageToText } : {}),
      ...(c.capabilities?.supportsToolCalling !== undefined ? { tools: c.capabilities.supportsToolCalling } : {}),
    }));
    return models.length > 0 ? { models } : { models, error: NO_VSCODE_MODELS };
  }
}

/** `id`, or `vendor/id` when two vendors offer the same id. */
function idOf(chat: LmChat, all?: readonly LmChat[]): string {
  const clash = all?.some((c) => c !== chat && c.id === chat.id);
  return clash ? `${chat.vendor}/${chat.id}` : chat.id;
}

function find(chats: readonly LmChat[], wanted: string): LmChat | undefined {
  const w = wanted.trim();
  if (!w) return chats[0];
  return (
    chats.find((c) => c.id === w) ??
    chats.find((c) => `${c.vendor}/${c.id}` === w) ??
    chats.find((c) => c.name.toLowerCase() === w.toLowerCase() || c.family.toLowerCase() === w.toLowerCase())
  );
}
