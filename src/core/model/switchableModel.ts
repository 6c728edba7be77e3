/**
 * A model the person can change while a task runs: each request goes to the model current when
 * it starts, so a change applies from the next request (a request under way finishes on the
 * model it started with). Price, context window and images follow the current model.
 */
import { costOf } from "./modelTable";
import type { ChatModel, ModelRequest, ModelStreamEvent, Usage } from "./types";

export class SwitchableModel implements ChatModel {
  constructor(private current: ChatModel) {}

  /** From the next request on, `model` answers. */
  switchTo(model: ChatModel): void {
    this.current = model;
  }

  get active(): ChatModel {
    return this.current;
  }
  get provider() {
    return this.current.provider;
  }
  get model() {
    return this.current.model;
  }
  get contextWindow() {
    return this.current.contextWindow;
  }
  get acceptsImages() {
    return this.current.acceptsImages;
  }

  costOf(usage: Usage): number | undefined {
    return this.current.costOf ? this.current.costOf(usage) : costOf(this.current.model, usage);
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    return this.current.stream(request);
  }
}
