import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { Logger } from "../log";
import { rememberDemoFolder } from "./demoFolders";

export const TRY_DEMO_COMMAND = "fathom.tryDemo";
/** Prefix of the temporary folders that hold demo copies (and the only ones ever deleted). */
const DEMO_PREFIX = "fathom-demo-";

/** A file of the demo that scripts/build.mjs puts in dist/demo/. */
export function demoAsset(context: vscode.ExtensionContext, name: "sample-workspace" | "cassette.jsonl.br"): string {
  return path.join(context.extensionUri.fsPath, "dist", "demo", name);
}

/**
 * "Fathom: Try the Demo Task": a fresh copy of the sample project (its slugify test fails),
 * remembered as a demo folder and opened in a new window, where Fathom's model is the bundled
 * recording (./demoModelSetup.ts). A window with no folder, or a demo window (the person
 * watches it again), opens it in place.
 *
 * The copy goes in the temporary folder, not the extension's storage: sandboxed commands may
 * not read VS Code's storage, and the demo runs the project's tests in the sandbox.
 */
export function registerTryDemo(o: {
  context: vscode.ExtensionContext;
  log: Logger;
  demo: boolean;
}): vscode.Disposable {
  return vscode.commands.registerCommand(TRY_DEMO_COMMAND, async () => {
    const source = demoAsset(o.context, "sample-workspace");
    let folder: string;
    try {
      await fs.access(demoAsset(o.context, "cassette.jsonl.br"));
      folder = path.join(await fs.mkdtemp(path.join(os.tmpdir(), DEMO_PREFIX)), "fathom-demo");
      await fs.cp(source, folder, { recursive: true });
    } catch (error) {
      const message = `Fathom could not set up the demo: ${(error as Error).message}. Reinstall Fathom (its demo project and recording are in ${path.dirname(source)}), or check that ${os.tmpdir()} is writable.`;
      o.log.error(message);
      void vscode.window.showErrorMessage(message);
      return;
    }
    for (const old of await rememberDemoFolder(o.context.globalState, folder)) void removeDemoCopy(old, o.log);
    o.log.info(`Demo: a fresh copy of the sample project in ${folder}`);
    const inPlace = !vscode.workspace.workspaceFolders?.length || o.demo;
    await vscode.commands.executeCommand("vscode.openFolder", vscode.Uri.file(folder), { forceNewWindow: !inPlace });
  });
}

/** Deletes an older demo copy: only a folder this command made (inside a `fathom-demo-*` temporary folder). */
async function removeDemoCopy(folder: string, log: Logger): Promise<void> {
  const parent = path.dirname(folder);
  if (path.dirname(parent) !== os.tmpdir() || !path.basename(parent).startsWith(DEMO_PREFIX)) return;
  await fs
    .rm(parent, { recursive: true, force: true })
    .catch((error: unknown) => log.warn(`Demo: could not delete the old copy ${parent}: ${String(error)}`));
}
