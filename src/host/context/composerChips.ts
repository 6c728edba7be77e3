import { attachmentKey, MAX_ATTACHMENTS, type Attachment } from "../../core";

/**
 * The chips waiting in the message box. The host keeps them (not the webview, which VS Code
 * drops while the view is hidden), so a chip added while the view is closed, or before a
 * reload, is still there when the person sends. The same file or range is kept once.
 */
export class ComposerChips {
  private list: Attachment[] = [];
  private notice: string | undefined;
  /** The caret was asked for while no view could take it: the next view to load gets it. */
  private focusOwed = false;

  /** `changed` returns whether a view took the update. */
  constructor(
    private readonly changed: (view: { attachments: Attachment[]; notice?: string; focus?: boolean }) => boolean,
  ) {}

  get attachments(): readonly Attachment[] {
    return this.list;
  }

  /** Adds chips (a duplicate is dropped, and so is one past the cap, with a notice). */
  add(attachments: readonly Attachment[]): void {
    const keys = new Set(this.list.map(attachmentKey));
    let full = 0;
    let duplicates = 0;
    for (const a of attachments) {
      const key = attachmentKey(a);
      if (keys.has(key)) duplicates += 1;
      else if (this.list.length >= MAX_ATTACHMENTS) full += 1;
      else {
        keys.add(key);
        this.list = [...this.list, a];
      }
    }
    this.notice = full
      ? `A message takes at most ${MAX_ATTACHMENTS} attachments: ${full} not added. Send this message first, or remove some.`
      : duplicates && duplicates === attachments.length
        ? "Already attached."
        : undefined;
    this.publish(true);
  }

  /** Nothing was added: says why in the message box. */
  refuse(reason: string): void {
    this.notice = reason;
    this.publish(true);
  }

  remove(index: number): void {
    if (index >= this.list.length) return;
    this.list = this.list.filter((_, i) => i !== index);
    this.notice = undefined;
    this.publish(false);
  }

  /** The person was brought to the message box (Focus Chat): the caret goes there. */
  focus(): void {
    this.publish(true);
  }

  /** Sent with a message. */
  clear(): void {
    if (this.list.length === 0 && !this.notice) return;
    this.list = [];
    this.notice = undefined;
    this.publish(false);
  }

  /** What a (re)loaded view is told (the caret too, when a command asked for it before the view was there). */
  view(): { attachments: Attachment[]; notice?: string; focus?: boolean } {
    const focus = this.focusOwed;
    this.focusOwed = false;
    return { attachments: this.list, ...(this.notice ? { notice: this.notice } : {}), ...(focus ? { focus } : {}) };
  }

  private publish(focus: boolean): void {
    const view = {
      attachments: this.list,
      ...(this.notice ? { notice: this.notice } : {}),
      ...(focus ? { focus } : {}),
    };
    if (!this.changed(view) && focus) this.focusOwed = true;
  }
}
