import type { BackendProtocol, EditResult, PreparedChange, WriteResult } from "./protocol";
import { WrappingBackend } from "./wrappingBackend";

/**
 * A backend the agent may only read (the person's own skills, routed into the agent's view):
 * every write is refused with `why`, a message for the model.
 */
export class ReadOnlyBackend extends WrappingBackend {
  constructor(
    inner: BackendProtocol,
    private readonly why: string,
  ) {
    super(inner);
  }

  private refuse(): Promise<{ error: string }> {
    return Promise.resolve({ error: this.why });
  }
  write(): Promise<WriteResult> {
    return this.refuse();
  }
  edit(): Promise<EditResult> {
    return this.refuse();
  }
  override prepareWrite(): Promise<PreparedChange | { error: string }> {
    return this.refuse();
  }
  override prepareEdit(): Promise<PreparedChange | { error: string }> {
    return this.refuse();
  }
  commitChange(): Promise<WriteResult> {
    return this.refuse();
  }
  currentText(): Promise<{ error: string }> {
    return this.refuse();
  }
  deleteFile(): Promise<WriteResult> {
    return this.refuse();
  }
}
