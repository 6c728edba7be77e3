// The attention notifier in a real extension host: the chat view's badge and the notifications
// when Fathom waits for an approval or ends a task while the person cannot see the chat.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { AttentionNotifier, type AttentionSession } from "../../../src/host/attention";
import { initialChatState, type ChatState, type HostToWebviewChat, type ToolItem } from "../../../src/protocol";

class FakeSession implements AttentionSession {
  state: ChatState = initialChatState();
  approved: string[] = [];
  diffs: string[] = [];
  private listeners: ((m: HostToWebviewChat) => void)[] = [];
  onMessage(listener: (m: HostToWebviewChat) => void): () => void {
    this.listeners.push(listener);
    return () => (this.listeners = this.listeners.filter((l) => l !== listener));
  }
  approve(id: string): void {
    this.approved.push(id);
  }
  openDiff(id: string): void {
    this.diffs.push(id);
  }
  set(status: ChatState["status"], items: ToolItem[] = []): void {
    this.state = { ...this.state, status, title: "Fix the slugify test", items };
    for (const l of this.listeners) l({ type: "status", status });
  }
}

function waitingEdit(id: string): ToolItem {
  return {
    id,
    kind: "tool",
    toolName: "edit_file",
    title: "Editing src/slugify.js",
    status: "awaiting_approval",
    args: "{}",
    proposal: { path: "/src/slugify.js", diff: "", added: 1, removed: 1, isNewFile: false, outcome: "pending" },
  } as ToolItem;
}

suite("Attention: badge and notifications when the chat cannot be seen", () => {
  let visible: boolean;
  let focused: boolean;
  let badge: vscode.ViewBadge | undefined;
  let notes: { message: string; actions: string[] }[];
  let answer: string | undefined;
  let shown: number;
  let settings: { approvals: boolean; taskEnd: boolean };
  const visibility = new vscode.EventEmitter<void>();
  let notifier: AttentionNotifier;
  let session: FakeSession;

  setup(() => {
    visible = true;
    focused = true;
    badge = undefined;
    notes = [];
    answer = undefined;
    shown = 0;
    settings = { approvals: true, taskEnd: true };
    notifier = new AttentionNotifier({
      view: {
        get visible() {
          return visible;
        },
        setBadge: (b) => (badge = b),
        onDidChangeVisibility: visibility.event,
      },
      settings: () => settings,
      focused: () => focused,
      showChat: async () => void shown++,
      notify: async (message, ...actions) => {
        notes.push({ message, actions });
        return answer;
      },
    });
    session = new FakeSession();
    notifier.attach(session);
  });
  teardown(() => notifier.dispose());

  const settle = () => new Promise((r) => setTimeout(r, 20));

  test("an approval while the view is visible and focused: no badge, no notification", async () => {
    session.set("awaiting_approval", [waitingEdit("e1")]);
    await settle();
    assert.equal(badge, undefined);
    assert.deepEqual(notes, []);
  });

  test("an approval with the view hidden: a badge and a notification whose Approve approves it", async () => {
    visible = false;
    answer = "Approve";
    session.set("awaiting_approval", [waitingEdit("e1")]);
    await settle();
    assert.equal(badge?.value, 1);
    assert.match(badge?.tooltip ?? "", /Fathom is waiting for you \(an approval or an answer\)/);
    assert.equal(notes.length, 1);
    assert.match(notes[0]!.message, /waiting for your approval to change \/src\/slugify\.js/);
    assert.deepEqual(notes[0]!.actions, ["Approve", "Show"]);
    assert.deepEqual(session.approved, ["e1"]);
    // Asked once per approval, however often the state changes.
    session.set("awaiting_approval", [waitingEdit("e1")]);
    await settle();
    assert.equal(notes.length, 1);
    // Decided: the badge goes.
    session.set("running");
    await settle();
    assert.equal(badge, undefined);
  });

  test("an approval with the window in the background: Show opens the chat and the diff", async () => {
    focused = false;
    answer = "Show";
    session.set("awaiting_approval", [waitingEdit("e2")]);
    await settle();
    assert.equal(shown, 1);
    assert.deepEqual(session.diffs, ["e2"]);
    assert.deepEqual(session.approved, []);
  });

  test("a task that ends unseen: a badge and a notification, gone once the view is seen", async () => {
    session.set("running");
    visible = false;
    session.set("completed");
    await settle();
    assert.equal(notes.length, 1);
    assert.match(notes[0]!.message, /Fathom finished: Fix the slugify test/);
    assert.equal(badge?.value, 1);
    visible = true;
    visibility.fire();
    assert.equal(badge, undefined);
  });

  test("the settings turn the notifications off; the badge stays", async () => {
    settings = { approvals: false, taskEnd: false };
    visible = false;
    session.set("awaiting_approval", [waitingEdit("e3")]);
    session.set("completed");
    await settle();
    assert.deepEqual(notes, []);
    assert.equal(badge?.value, 1);
  });

  test("the notification settings are the person's own: application scope, on by default", () => {
    const ext = vscode.extensions.getExtension("fathom-dev.fathom");
    assert.ok(ext, "Fathom is installed");
    const pkg = ext.packageJSON as {
      contributes: { configuration: { properties: Record<string, { scope?: string; default?: unknown }> } };
    };
    for (const key of ["fathom.notifications.approvals", "fathom.notifications.taskEnd"]) {
      assert.equal(pkg.contributes.configuration.properties[key]?.default, true, key);
      assert.equal(pkg.contributes.configuration.properties[key]?.scope, "application", key);
    }
  });
});
