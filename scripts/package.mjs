// Packs dist/ into fathom-<version>.vsix (everything is bundled, so no node_modules ship)
// and prints its size. The vsix is for one platform (`--target`, default this machine's, as VS
// Code names them: linux-x64, linux-arm64, darwin-arm64, win32-x64…): only Linux needs the
// sandbox's seccomp helper, and only its own architecture's (about 300 KB each, compressed).
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const argv = process.argv.slice(2);
const target = argv.includes("--target") ? argv[argv.indexOf("--target") + 1] : `${process.platform}-${process.arch}`;
const helperArch = /^(linux|alpine)-(x64|arm64)$/.exec(target)?.[2];
// .vscodeignore without the seccomp helpers this target does not run.
const ignoreFile = path.join(root, "dist", ".vscodeignore-target");
writeFileSync(
  ignoreFile,
  readFileSync(path.join(root, ".vscodeignore"), "utf8")
    .split("\n")
    .filter(
      (line) => !/^!dist\/vendor\/seccomp\//.test(line) || line === `!dist/vendor/seccomp/${helperArch}/apply-seccomp`,
    )
    .join("\n"),
);
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
    "--ignoreFile",
    path.relative(root, ignoreFile),
    "--target",
    target,
    "-o",
    out,
  ],
  { cwd: root, stdio: "inherit" },
);
rmSync(ignoreFile, { force: true });
console.log(`vsix: ${path.basename(out)} (${target}) ${(statSync(out).size / 1024).toFixed(1)} KB`);
