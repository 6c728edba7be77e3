/**
 * Work held back until the chat shows a request's card: an open diff's update and the card's
 * render share the window's main thread, and the card is what the person reads first. A chat
 * that is hidden never says, so the work runs after `waitMs` anyway.
 */
export class CardWaits {
  private readonly waiting = new Map<string, () => void>();

  constructor(private readonly waitMs: number) {}

  /** Runs `run` once `shown(id)` is called, or after `waitMs`. */
  after(id: string, run: () => void): void {
    const timer = setTimeout(() => this.shown(id), this.waitMs);
    this.waiting.set(id, () => (clearTimeout(timer), run()));
  }

  /** The chat shows the card of `id`. */
  shown(id: string): void {
    const run = this.waiting.get(id);
    this.waiting.delete(id);
    run?.();
  }
}
