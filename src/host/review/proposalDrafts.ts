import type * as vscode from "vscode";

/** A proposal's right side as the person left it. */
interface Draft {
  path: string;
  /** The model's proposal the edits were made to (a changed proposal drops the draft). */
  proposed: string;
  text: string;
}
const DRAFTS_KEY = "fathom.proposalDrafts";
/** Drafts of tasks never resumed are not kept forever: past this, the oldest go first. */
const MAX_DRAFTS = 20;

/**
 * The person's edits of proposals' right sides, by request id, kept in the workspace's storage
 * (saved shortly after they stop typing), so a proposal asked again after a window reload comes
 * back with them. Without storage they live only as long as the window.
 */
export class ProposalDrafts {
  private readonly drafts: Map<string, Draft>;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly storage: vscode.Memento | undefined) {
    this.drafts = new Map(Object.entries(storage?.get<Record<string, Draft>>(DRAFTS_KEY) ?? {}));
  }

  /** The right side as it is now (`text`) of the proposal `proposed` for `path`. */
  note(id: string, path: string, proposed: string, text: string): void {
    if (text === proposed) this.drafts.delete(id);
    else this.drafts.set(id, { path, proposed, text });
    while (this.drafts.size > MAX_DRAFTS) this.drafts.delete(this.drafts.keys().next().value!);
    this.saveSoon();
  }

  /** The person's edits of this same proposal, if any (a draft of another proposal is dropped). */
  restore(id: string, proposed: string): string | undefined {
    const draft = this.drafts.get(id);
    if (draft && draft.proposed !== proposed) this.forget(id);
    return draft?.proposed === proposed ? draft.text : undefined;
  }

  /** Decided: the draft is done with. */
  forget(id: string): void {
    if (this.drafts.delete(id)) this.saveSoon();
  }

  /** Saves what is not saved yet (the window is closing). */
  flush(): void {
    if (this.timer) this.save();
  }

  private saveSoon(): void {
    if (!this.storage) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.save(), 200);
  }

  private save(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    void this.storage?.update(DRAFTS_KEY, this.drafts.size > 0 ? Object.fromEntries(this.drafts) : undefined);
  }
}
