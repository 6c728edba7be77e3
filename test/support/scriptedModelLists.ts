/**
 * The scripted server's model lists, in each server's own shape:
 * - OpenAI and OpenAI-compatible: GET /v1/models (OpenRouter's `context_length` and per-token
 *   `pricing` when given),
 * - Anthropic: GET /v1/models with an `anthropic-version` header, paged by `after_id`/`limit`,
 * - Ollama: GET /api/tags, and POST /api/show for a model's context length and capabilities.
 */
import type { IncomingHttpHeaders } from "node:http";

export interface ListedModel {
  id: string;
  /** OpenRouter-style `context_length` on /v1/models; Ollama's `<arch>.context_length` in /api/show. */
  contextLength?: number;
  /** OpenRouter-style prices in dollars per token, as strings. */
  pricing?: { prompt: string; completion: string };
  /** Ollama's capabilities ("completion", "tools", "vision"). */
  capabilities?: string[];
  displayName?: string;
}

/** A list, or an HTTP failure (a server that cannot list models). */
export type ListAnswer = ListedModel[] | { status: number; message?: string };

export interface ModelLists {
  openai?: ListAnswer;
  anthropic?: ListAnswer;
  /** Absent: /api/tags is not found (not an Ollama server). */
  ollama?: ListAnswer;
}

const DEFAULT: ListedModel[] = [{ id: "scripted" }];

export function modelListResponse(
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  rawBody: string,
  lists: ModelLists = {},
): { status: number; body: unknown } | undefined {
  const [path = "/", query = ""] = url.split("?");
  if (method === "GET" && path === "/v1/models") {
    if (headers["anthropic-version"]) return anthropicList(lists.anthropic ?? DEFAULT, new URLSearchParams(query));
    return answer(lists.openai ?? DEFAULT, (models) => ({
      object: "list",
      data: models.map((m) => ({
        id: m.id,
        object: "model",
        created: 1_700_000_000,
        owned_by: "scripted",
        ...(m.contextLength ? { context_length: m.contextLength } : {}),
        ...(m.pricing ? { pricing: m.pricing } : {}),
      })),
    }));
  }
  if (method === "GET" && path === "/api/tags") {
    if (!lists.ollama) return { status: 404, body: "404 page not found" };
    return answer(lists.ollama, (models) => ({
      models: models.map((m) => ({
        name: m.id,
        model: m.id,
        modified_at: "2026-01-01T00:00:00Z",
        size: 9_000_000_000,
        digest: "0".repeat(64),
        details: { format: "gguf", family: "qwen2", parameter_size: "14.8B", quantization_level: "Q4_K_M" },
      })),
    }));
  }
  if (method === "POST" && path === "/api/show") {
    if (!lists.ollama || !Array.isArray(lists.ollama)) return { status: 404, body: { error: "not found" } };
    let name = "";
    try {
      const body = JSON.parse(rawBody) as { model?: string; name?: string };
      name = body.model ?? body.name ?? "";
    } catch {
      return { status: 400, body: { error: "invalid JSON" } };
    }
    const m = lists.ollama.find((x) => x.id === name);
    if (!m) return { status: 404, body: { error: `model '${name}' not found` } };
    return {
      status: 200,
      body: {
        details: { family: "qwen2" },
        model_info: {
          "general.architecture": "qwen2",
          ...(m.contextLength ? { "qwen2.context_length": m.contextLength } : {}),
        },
        ...(m.capabilities ? { capabilities: m.capabilities } : {}),
      },
    };
  }
  return undefined;
}

function answer(list: ListAnswer, shape: (models: ListedModel[]) => unknown): { status: number; body: unknown } {
  if (!Array.isArray(list))
    return {
      status: list.status,
      body: { error: { message: list.message ?? `Error ${list.status}.`, type: "invalid_request_error" } },
    };
  return { status: 200, body: shape(list) };
}

function anthropicList(list: ListAnswer, query: URLSearchParams): { status: number; body: unknown } {
  if (!Array.isArray(list))
    return {
      status: list.status,
      body: { type: "error", error: { type: "api_error", message: list.message ?? `Error ${list.status}.` } },
    };
  const limit = Number(query.get("limit") ?? 20) || 20;
  const after = query.get("after_id");
  const start = after ? list.findIndex((m) => m.id === after) + 1 : 0;
  const page = list.slice(start, start + limit);
  return {
    status: 200,
    body: {
      data: page.map((m) => ({
        type: "model",
        id: m.id,
        display_name: m.displayName ?? m.id,
        created_at: "2026-01-01T00:00:00Z",
        lifecycle: "active",
        max_input_tokens: m.contextLength ?? null,
        capabilities: m.capabilities ? { image_input: { supported: m.capabilities.includes("vision") } } : null,
      })),
      has_more: start + limit < list.length,
      first_id: page[0]?.id ?? null,
      last_id: page[page.length - 1]?.id ?? null,
    },
  };
}
