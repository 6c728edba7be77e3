// Bench-only: a full garbage collection in this extension host (Fathom's), then its memory,
// appended as a JSON line to the file the `fathomMemoryProbe.resultFile` setting names.
import * as fs from "node:fs";
import * as v8 from "node:v8";
import * as vm from "node:vm";
import * as vscode from "vscode";

function collectGarbage(): void {
  // The host is not started with --expose-gc: the flag can be set now, and `gc` read from a fresh context.
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as (() => void) | undefined;
  gc?.();
  gc?.();
}

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand("fathomMemoryProbe.measure", async () => {
      const before = process.memoryUsage();
      collectGarbage();
      await new Promise((r) => setTimeout(r, 500));
      const after = process.memoryUsage();
      const file = vscode.workspace.getConfiguration("fathomMemoryProbe").get<string>("resultFile");
      const fathomActive = vscode.extensions.getExtension("fathom-dev.fathom")?.isActive ?? false;
      if (file)
        fs.appendFileSync(
          file,
          `${JSON.stringify({ at: Date.now(), pid: process.pid, fathomActive, before, after })}\n`,
        );
    }),
  );
}
