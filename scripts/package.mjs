// Packs dist/ into fathom-<version>.vsix (everything is bundled, so no node_modules ship)
// and prints its size.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const out = path.join(root, `fathom-${version}.vsix`);

// The extension page shows README.md. Its screenshot and links to repository files only
// resolve in the repository, so the packaged copy drops images and turns those links to text.
const readme = readFileSync(path.join(root, "README.md"), "utf8")
  .replace(/^!\[[^\]]*\]\((?!https?:)[^)]*\)\n\n?/gm, "")
  .replace(/\[([^\]]+)\]\((?!https?:|#)[^)]*\)/g, "$1");
const packagedReadme = path.join(root, "dist", "README.md");
writeFileSync(packagedReadme, readme);

execFileSync(
  process.execPath,
  [
    path.join(root, "node_modules/@vscode/vsce/vsce"),
    "package",
    "--no-dependencies",
    "--allow-missing-repository",
    "--readme-path",
    path.relative(root, packagedReadme), // vsce matches it against the packed files' relative paths
    "-o",
    out,
  ],
  { cwd: root, stdio: "inherit" },
);
console.log(`vsix: ${path.basename(out)} ${(statSync(out).size / 1024).toFixed(1)} KB`);
