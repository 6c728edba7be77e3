/**
 * The window's limit of tasks running at once: a run takes a slot before its first request and
 * gives it back when it ends; past the limit it waits (first come, first served), and a cancel
 * ends the wait.
 */
export class TaskSlots {
  private running = 0;
  private readonly waiting: { grant(): void }[] = [];

  constructor(private readonly max: () => number) {}

  get inUse(): number {
    return this.running;
  }

  /** Resolves with the slot's release once one is free (at once when one is). */
  async acquire(signal: AbortSignal, onWait: (running: number) => void): Promise<() => void> {
    if (this.running < this.max() && this.waiting.length === 0) {
      this.running++;
      return this.releaser();
    }
    onWait(this.running);
    const granted = await new Promise<boolean>((resolve) => {
      const waiter = { grant: () => resolve(true) };
      this.waiting.push(waiter);
      signal.addEventListener(
        "abort",
        () => {
          const at = this.waiting.indexOf(waiter);
          if (at < 0) return;
          this.waiting.splice(at, 1);
          resolve(false);
        },
        { once: true },
      );
    });
    // A granted slot was counted by `next` on the waiter's behalf.
    return granted ? this.releaser() : () => undefined;
  }

  /** Grants waiting runs their slots while there are free ones (also after the limit was raised). */
  next(): void {
    while (this.waiting.length > 0 && this.running < this.max()) {
      this.running++;
      this.waiting.shift()!.grant();
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.next();
    };
  }
}
