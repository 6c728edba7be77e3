/**
 * Messages the person sends while a task runs ("Send now"). The loop takes them at the next
 * step boundary: after the running tool calls end, or at once while the model streams (the
 * stream is stopped and what arrived is kept).
 */
export class SteeringInbox {
  private pending: string[] = [];
  private readonly listeners = new Set<() => void>();

  push(text: string): void {
    if (!text.trim()) return;
    this.pending.push(text);
    for (const listener of [...this.listeners]) listener();
  }

  /** The messages not delivered yet, removed from the inbox. */
  take(): string[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  get size(): number {
    return this.pending.length;
  }

  /** Called when a message arrives; returns the unsubscribe. */
  onMessage(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
