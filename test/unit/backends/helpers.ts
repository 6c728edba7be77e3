import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A temp folder holding `root/` (the workspace) and `outside/` (with a canary file). */
export function makeSandbox(files: Record<string, string | Buffer> = {}): {
  base: string;
  root: string;
  outside: string;
  canary: string;
  cleanup: () => void;
} {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "fathom-fs-")));
  const root = path.join(base, "root");
  const outside = path.join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  const canary = path.join(outside, "canary.txt");
  writeFileSync(canary, "CANARY-SECRET\n");
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return { base, root, outside, canary, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
