import * as vscode from "vscode";
import { CHAT_VIEW_ID, type ChatViewProvider } from "../chatView/chatViewProvider";
import type { Logger } from "../log";
import type { LmApi } from "../models/lmApi";
import type { VscodeModels } from "../models/vscodeModels";

/** The walkthrough's id in package.json (`contributes.walkthroughs`). */
export const WALKTHROUGH_ID = "fathom.gettingStarted";
/** Set once the walkthrough was opened unasked (or the person's setting said not to): never again. */
const OFFERED_KEY = "fathom.walkthroughOffered";

interface GettingStartedDeps {
  context: vscode.ExtensionContext;
  view: ChatViewProvider;
  vscodeModels: VscodeModels;
  /** VS Code's Language Model API, or why this VS Code has none. */
  lm: LmApi | string;
  log: Logger;
  /** A demo window opens no walkthrough: the person is watching the demo. */
  demo: boolean;
}

/**
 * Getting started: the walkthrough opens by itself once, the first time the chat is shown after
 * Fathom is installed (unless the person turned `workbench.welcomePage.walkthroughs.openOnInstall`
 * off), and "Fathom: Get Started" opens it whenever asked. Waiting for the view, rather than
 * opening at activation, keeps it from taking the focus from a command's input box.
 */
export function registerGettingStarted(o: GettingStartedDeps): vscode.Disposable {
  const id = `${o.context.extension.id}#${WALKTHROUGH_ID}`;
  // The second argument is "to the side": beside the editors, keeping the focus where it is.
  const open = (toSide: boolean) => vscode.commands.executeCommand("workbench.action.openWalkthrough", id, toSide);
  const disposables: vscode.Disposable[] = [
    vscode.commands.registerCommand("fathom.getStarted", () => open(false)),
    vscode.commands.registerCommand("fathom.useVscodeModels", () => useVscodeModels(o.lm, o.vscodeModels)),
  ];
  if (!o.demo && o.context.globalState.get<boolean>(OFFERED_KEY) !== true) {
    const whenShown = o.view.onDidChangeVisibility(() => {
      if (!o.view.visible) return;
      whenShown.dispose();
      void offerOnce(o, open).catch((error: unknown) =>
        o.log.warn(`Could not open the Get Started walkthrough: ${String(error)}`),
      );
    });
    disposables.push(whenShown);
  }
  return vscode.Disposable.from(...disposables);
}

/** VS Code's walkthrough page focuses its first step 250 ms after it shows (its animation). */
const WALKTHROUGH_SETTLES_MS = 1000;

/**
 * The person opened the chat to use it: the walkthrough opens beside it and the focus stays in
 * the chat. Beside open editors it opens to the side (which keeps the focus); in an empty editor
 * area (a side group would leave an empty one) it opens there and the chat gets the focus back
 * once the page has taken it.
 */
async function offerOnce(o: GettingStartedDeps, open: (toSide: boolean) => Thenable<unknown>): Promise<void> {
  // Recorded first: a walkthrough that fails to open must not be tried at every start.
  await o.context.globalState.update(OFFERED_KEY, true);
  if (vscode.workspace.getConfiguration("workbench").get<boolean>("welcomePage.walkthroughs.openOnInstall") === false)
    return;
  const besideEditors = vscode.window.visibleTextEditors.length > 0;
  o.log.info("Opening the Get Started walkthrough (once, after install; Fathom: Get Started opens it again).");
  await open(besideEditors);
  if (besideEditors) return;
  await new Promise((resolve) => setTimeout(resolve, WALKTHROUGH_SETTLES_MS));
  if (o.view.visible) await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
}

/** The walkthrough's "VS Code's models" button: `fathom.provider` set to `vscode` in the user settings. */
async function useVscodeModels(lm: LmApi | string, models: VscodeModels): Promise<void> {
  if (typeof lm === "string") {
    void vscode.window.showWarningMessage(`Fathom: ${lm}`);
    return;
  }
  const list = await models.list();
  await vscode.workspace.getConfiguration("fathom").update("provider", "vscode", vscode.ConfigurationTarget.Global);
  await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  if (list.models.length === 0) {
    void vscode.window.showWarningMessage(
      `Fathom now uses VS Code's language models, but there are none yet. ${list.error ?? ""}`.trim(),
    );
    return;
  }
  const first = list.models[0]!;
  void vscode.window.showInformationMessage(
    `Fathom now uses VS Code's language models (${list.models.length} available; the first is ${first.name ?? first.id}). Pick one in Model at the top of the chat; VS Code asks for your consent the first time.`,
  );
}
