import * as vscode from "vscode";
import {
  HostToWebviewSchema,
  WebviewToHostSchema,
  parseMessage,
  type HostToWebview,
  type TranscriptMessage,
  type WebviewToHost,
} from "../protocol";
import { renderWebviewHtml } from "./webviewHtml";

export const CHAT_VIEW_ID = "fathom.chat";

/**
 * Hosts the chat webview. The host owns the transcript; the webview only renders what it is
 * sent and asks for the whole state again whenever it (re)loads.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private transcript: TranscriptMessage[] = [];
  private nextId = 1;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, "dist")],
    };
    view.webview.html = renderWebviewHtml(view.webview, this.extensionUri);
    this.disposables.push(
      view.webview.onDidReceiveMessage((data: unknown) => this.receive(data)),
      view.onDidDispose(() => {
        this.view = undefined;
      }),
    );
  }

  /** "New task": forget the transcript and show an empty chat. */
  newTask(): void {
    this.transcript = [];
    this.post({ type: "transcript", messages: [] });
  }

  private receive(data: unknown): void {
    const parsed = parseMessage(WebviewToHostSchema, data);
    if (!parsed.ok) {
      this.log.warn(`Dropped an invalid message from the chat view: ${parsed.error}`);
      return;
    }
    this.handle(parsed.message);
  }

  private handle(message: WebviewToHost): void {
    switch (message.type) {
      case "ready":
        this.post({ type: "transcript", messages: this.transcript });
        return;
      case "newTask":
        this.newTask();
        return;
      case "sendMessage": {
        this.append({ id: this.newId(), role: "user", text: message.text });
        this.log.info(`Message received (${message.text.length} characters)`);
        // Until the agent is connected the host acknowledges what it received, which proves
        // the validated round trip end to end.
        this.append({ id: this.newId(), role: "assistant", text: `Received: ${message.text}` });
        return;
      }
    }
  }

  private append(message: TranscriptMessage): void {
    this.transcript.push(message);
    this.post({ type: "appendMessage", message });
  }

  private post(message: HostToWebview): void {
    // Validate what we send too: a malformed message is a host bug and must not reach the UI.
    const checked = parseMessage(HostToWebviewSchema, message);
    if (!checked.ok) {
      this.log.error(`Refused to send an invalid message to the chat view: ${checked.error}`);
      return;
    }
    void this.view?.webview.postMessage(checked.message);
  }

  private newId(): string {
    return `m${this.nextId++}`;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
