import { costOf } from "./modelTable";
import type { ChatModel, ModelFit, ModelRequest, ModelStreamEvent, Usage } from "./types";

/**
 * A model around another (`inner`): who it is, its window, images and price are the inner
 * model's; a subclass changes how a turn is streamed. `inner` may be a getter (a model the
 * person can switch while a task runs).
 */
export abstract class WrappedModel implements ChatModel {
  abstract readonly inner: ChatModel;

  get provider() {
    return this.inner.provider;
  }
  get model() {
    return this.inner.model;
  }
  get contextWindow() {
    return this.inner.contextWindow;
  }
  get acceptsImages() {
    return this.inner.acceptsImages;
  }

  costOf(usage: Usage): number | undefined {
    return this.inner.costOf ? this.inner.costOf(usage) : costOf(this.inner.model, usage);
  }

  /** The inner model's fit (the tool-call mode and profile it is driven with). */
  fit(signal?: AbortSignal): Promise<ModelFit> {
    return fitOf(this.inner, signal);
  }

  abstract stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

/** A model's fit; one that does not say is driven as before: its adapter's tool calls, the full profile. */
export function fitOf(model: ChatModel, signal?: AbortSignal): Promise<ModelFit> {
  return model.fit
    ? model.fit(signal)
    : Promise.resolve({
        toolCallMode: "native",
        profile: "full",
        reason: `${model.model}: as its adapter sends tools, full profile`,
      });
}
