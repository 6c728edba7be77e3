// Packs dist/ into fathom-<version>.vsix (everything is bundled, so no node_modules ship)
// and prints its size.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const out = path.join(root, `fathom-${version}.vsix`);
execFileSync(
  process.execPath,
  [path.join(root, "node_modules/@vscode/vsce/vsce"), "package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "-o", out],
  { cwd: root, stdio: "inherit" },
);
console.log(`vsix: ${path.basename(out)} ${(statSync(out).size / 1024).toFixed(1)} KB`);
