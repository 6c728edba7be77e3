import type { ChatModel, ModelFit, ModelRequest, ModelStreamEvent, Usage } from "../../core";
import { latency } from "../latency";
import type { Logger } from "../log";

/**
 * Wraps a model so each request is logged: its size going out, its time and tokens coming
 * back, every retry, and failures. Never the key (it is not in the request) and never content.
 */
export function loggedModel(model: ChatModel, log: Logger): ChatModel {
  let calls = 0;
  return {
    provider: model.provider,
    model: model.model,
    contextWindow: model.contextWindow,
    ...(model.acceptsImages !== undefined ? { acceptsImages: model.acceptsImages } : {}),
    ...(model.costOf ? { costOf: (usage: Usage) => model.costOf!(usage) } : {}),
    // The run's tool-call mode and profile, and why, once per run: the person can see (and override) them.
    ...(model.fit
      ? {
          async fit(signal?: AbortSignal): Promise<ModelFit> {
            const fit = await model.fit!(signal);
            log.info(
              `Model ${model.provider}/${model.model}: ${fit.profile} profile, ${fit.toolCallMode} tool calls (${fit.reason}). Set "tools" or "profile" for it in fathom.modelOverrides to choose otherwise.`,
            );
            return fit;
          },
        }
      : {}),
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      const n = ++calls;
      const chars =
        request.system.length +
        request.messages.reduce(
          (sum, m) =>
            sum + m.content.length + ("toolCalls" in m && m.toolCalls ? JSON.stringify(m.toolCalls).length : 0),
          0,
        );
      const started = Date.now();
      let first: number | undefined;
      log.info(
        `→ ${model.provider}/${model.model} request ${n}: ${request.messages.length} messages, ${chars} characters, ${request.tools.length} tools`,
      );
      // What this request answers: the person's message, or the tool results it carries.
      const last = request.messages.at(-1);
      if (last?.role === "user") latency(log, "message", "request sent");
      for (let i = request.messages.length - 1; i >= 0; i--) {
        const m = request.messages[i]!;
        if (m.role !== "tool") break;
        latency(log, m.toolCallId, "next request sent");
      }
      try {
        for await (const event of model.stream(request)) {
          if (first === undefined) {
            first = Date.now() - started;
            latency(log, `request-${n}`, "first event");
          }
          if (event.type === "retry")
            log.warn(`  request ${n}: ${event.reason}; retry ${event.attempt} in ${Math.round(event.delayMs)} ms`);
          if (event.type === "notice") log.info(`  request ${n}: ${event.message}`);
          if (event.type === "done") {
            for (const call of event.message.toolCalls ?? []) latency(log, call.id, "model done");
            const u = event.usage;
            log.info(
              `← request ${n}: ${Date.now() - started} ms (first byte ${first} ms), stop ${event.stopReason}, tokens${event.usageEstimated ? " (estimated: the server reported none)" : ""} in ${u.inputTokens} (+${u.cacheReadTokens} cached, +${u.cacheWriteTokens} cache write), out ${u.outputTokens}, ${event.message.toolCalls?.length ?? 0} tool calls`,
            );
          }
          yield event;
        }
      } catch (err) {
        const kind = (err as { kind?: string }).kind ?? "error";
        log.error(`✗ request ${n} failed after ${Date.now() - started} ms (${kind}): ${(err as Error).message}`);
        throw err;
      }
    },
  };
}
