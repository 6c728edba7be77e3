/**
 * A model the person can change while a task runs: each request goes to the model current when
 * it starts, so a change applies from the next request (a request under way finishes on the
 * model it started with). Price, context window and images follow the current model.
 */
import type { ChatModel, ModelRequest, ModelStreamEvent } from "./types";
import { WrappedModel } from "./wrappedModel";

export class SwitchableModel extends WrappedModel {
  constructor(private current: ChatModel) {
    super();
  }

  get inner(): ChatModel {
    return this.current;
  }

  /** From the next request on, `model` answers. */
  switchTo(model: ChatModel): void {
    this.current = model;
  }

  get active(): ChatModel {
    return this.current;
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    return this.current.stream(request);
  }
}
