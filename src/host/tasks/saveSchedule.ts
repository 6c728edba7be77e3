/**
 * When a task is saved: at once (a step or a tool call ended), a tick later (after a message the
 * person waits for has left), or at most once a second while text streams (nothing the person
 * saw is lost on a crash, and a fast stream does not save on every token).
 */
export class SaveSchedule {
  private savedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly save: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Saves now. */
  flush(): void {
    this.cancel();
    this.savedAt = this.now();
    this.save();
  }

  /** Saves a tick from now (what is being sent first goes first). */
  nextTick(): void {
    this.cancel();
    this.timer = setTimeout(() => this.flush(), 0);
  }

  /** Saves now if the last save is a second old, else once it is. */
  soon(): void {
    const wait = 1000 - (this.now() - this.savedAt);
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
