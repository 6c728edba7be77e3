/**
 * The window's first diff editor costs VS Code's main thread a few hundred milliseconds (issue 40:
 * ~400 ms in a fresh window), and the chat's Approve card, whose message and paint go through that
 * thread, waited behind it. Until a diff editor has opened in this window, none opens while the
 * model still writes its call (no early diff), and a request's diff opens once its card is on
 * screen (or after the card's wait): the card shows as soon as the call's arguments are complete,
 * and the diff opens beside it when VS Code is ready. Approving before it painted approves the
 * proposal the card shows. Once one diff editor has opened, diffs open early, as before.
 */
export class FirstDiff {
  private static openedInWindow = false;

  /** `alreadyOpen`: the window shows a diff editor now (the person's own, say). */
  constructor(private readonly alreadyOpen: () => boolean) {}

  /** Whether VS Code has shown a diff editor in this window (so another one opens quickly). */
  get warm(): boolean {
    return FirstDiff.openedInWindow || this.alreadyOpen();
  }

  /** A diff editor opened. */
  opened(): void {
    FirstDiff.openedInWindow = true;
  }

  /**
   * Opens a request's diff: a tick after the card's message when the window is warm, else once
   * `afterCard` runs it (when the chat shows the card).
   */
  schedule(open: () => void, afterCard: (run: () => void) => void): void {
    if (this.warm) setTimeout(open, 0);
    else afterCard(open);
  }

  /** For tests: a window that has shown no diff editor yet. */
  static forgetForTests(): void {
    FirstDiff.openedInWindow = false;
  }
}
