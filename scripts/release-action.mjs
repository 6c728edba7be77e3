// `npm run release:action -- --version 1.2.3 [--remote origin] [--push]`: makes the commit that
// `uses: OWNER/fathom@v1` checks out. dist/ is not on main, so a release commit is the source
// commit's tree plus the built action (dist/action.js and what it loads beside itself), with the
// source commit as its parent; it is tagged v1.2.3 and the major tag v1 moves to it. The commit is
// made from a temporary index (git commit-tree): the person's checkout and branch are untouched.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import semver from "semver";
import { actionRuntimeFiles } from "./actionRuntimeFiles.mjs";

const root = path.resolve(import.meta.dirname, "..");

class Refusal extends Error {}
const refuse = (message) => {
  throw new Refusal(message);
};

function git(args, options = {}) {
  return execFileSync("git", args, {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  }).trim();
}
function gitMaybe(args) {
  const r = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function readOptions() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        version: { type: "string" },
        remote: { type: "string", default: "origin" },
        push: { type: "boolean", default: false },
      },
    }).values;
  } catch (error) {
    refuse(`${error.message}. Usage: npm run release:action -- --version 1.2.3 [--remote origin] [--push]`);
  }
  const raw =
    parsed.version ?? refuse("Say which version: npm run release:action -- --version 1.2.3 [--remote origin] [--push]");
  const version = /^v?\d/.test(raw) ? semver.valid(raw.replace(/^v/, "")) : null;
  if (!version) refuse(`"${raw}" is not a semantic version (MAJOR.MINOR.PATCH, e.g. 1.2.3 or 1.3.0-rc.1).`);
  return { version, remote: parsed.remote, push: parsed.push };
}

/** Tags (name → the commit it points at) here, and on the remote when the release is pushed. */
function knownTags(remote, push) {
  const tags = new Map();
  for (const line of (
    gitMaybe(["for-each-ref", "--format=%(refname:strip=2) %(*objectname) %(objectname)", "refs/tags"]) ?? ""
  )
    .split("\n")
    .filter(Boolean)) {
    const [name, peeled, object] = line.split(" ");
    tags.set(name, { commit: peeled || object, where: "here" });
  }
  if (!push) return tags;
  const listed = spawnSync("git", ["ls-remote", "--tags", remote], { cwd: root, encoding: "utf8" });
  if (listed.status !== 0)
    refuse(
      `Cannot read the tags of the remote "${remote}" (${listed.stderr.trim()}). Check \`git remote -v\` and your access, or pass --remote NAME.`,
    );
  const remoteTags = new Map();
  for (const line of listed.stdout.split("\n").filter(Boolean)) {
    const [commit, ref] = line.split("\t");
    const name = ref.replace(/^refs\/tags\//, "");
    if (name.endsWith("^{}")) remoteTags.set(name.slice(0, -3), commit);
    else if (!remoteTags.has(name)) remoteTags.set(name, commit);
  }
  for (const [name, commit] of remoteTags) tags.set(name, { commit, where: `on ${remote}` });
  return tags;
}

function checkTags(version, tags) {
  const versionTag = `v${version}`;
  const existing = tags.get(versionTag);
  if (existing)
    refuse(
      `The tag ${versionTag} already exists (${existing.where}, at ${existing.commit.slice(0, 12)}). A released version never changes: release the next one (e.g. ${semver.inc(version, "patch")}).`,
    );
  const major = `v${semver.major(version)}`;
  if (semver.prerelease(version)) return { versionTag, major: undefined };
  const current = tags.get(major);
  if (current) {
    const versionsThere = [...tags]
      .filter(
        ([name, t]) =>
          t.commit === current.commit &&
          semver.valid(name.replace(/^v/, "")) &&
          semver.major(name.replace(/^v/, "")) === semver.major(version),
      )
      .map(([name]) => name.replace(/^v/, ""));
    const latest = versionsThere.sort(semver.rcompare)[0];
    if (!latest)
      refuse(
        `${major} (${current.where}) points at ${current.commit.slice(0, 12)}, which no v${semver.major(version)}.x.y tag names, so its version is unknown. Tag that commit with its version, or move ${major} by hand (git tag -f ${major} COMMIT), then release again.`,
      );
    if (semver.lt(version, latest))
      refuse(
        `${major} points at ${latest}; ${version} is older, and moving ${major} to it would take every workflow that uses @${major} backwards. Release a version above ${latest}; to roll back on purpose, move ${major} by hand (git tag -f -a ${major} v<older>^{} and push it with --force).`,
      );
  }
  return { versionTag, major };
}

function checkSource() {
  if (gitMaybe(["rev-parse", "--is-inside-work-tree"]) !== "true")
    refuse(`${root} is not a git checkout: release from a clone of the repository.`);
  const dirty = git(["status", "--porcelain", "--untracked-files=normal"]).split("\n").filter(Boolean);
  if (dirty.length > 0)
    refuse(
      `The working tree has changes that are not committed (${dirty
        .slice(0, 5)
        .map((l) => l.slice(3))
        .join(
          ", ",
        )}${dirty.length > 5 ? ", …" : ""}). A release is built from a commit: commit them, or set them aside with \`git stash -u\`, then run again.`,
    );
  const source = git(["rev-parse", "HEAD"]);
  if (gitMaybe(["cat-file", "-e", `${source}:dist/action.js`]) !== undefined)
    refuse(
      `HEAD (${source.slice(0, 12)}) is itself a release commit (it holds dist/action.js). Check out the source branch (e.g. git switch main) and release from there.`,
    );
  if (gitMaybe(["var", "GIT_COMMITTER_IDENT"]) === undefined)
    refuse(
      'git has no name and e-mail to make the release commit with: git config user.name "…" && git config user.email "…".',
    );
  try {
    statSync(path.join(root, "node_modules/esbuild"));
  } catch {
    refuse("node_modules is missing: run `npm ci` first (the bundle is built with esbuild).");
  }
  return source;
}

/** The production bundle and the files it loads at run time, in `out` (paths as in the release). */
function build(scratch) {
  const out = path.join(scratch, "dist");
  const meta = path.join(scratch, "metafile.json");
  const built = spawnSync(
    process.execPath,
    ["scripts/build.mjs", "--production", "--only", "action", "--outdir", out, "--metafile", meta],
    { cwd: root, encoding: "utf8" },
  );
  if (built.status !== 0) {
    process.stderr.write(built.stdout + built.stderr);
    refuse(
      "The action's build failed (its output is above). Fix it on the source branch, commit, and release again; nothing was tagged.",
    );
  }
  const { files, problems } = actionRuntimeFiles(JSON.parse(readFileSync(meta, "utf8")), root);
  if (problems.length > 0)
    refuse(`The bundle loads files from outside itself that the release would not carry:\n- ${problems.join("\n- ")}`);
  for (const f of files) {
    const target = path.join(out, f.to);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(f.from, target);
    chmodSync(target, f.executable ? 0o755 : 0o644);
  }
  return out;
}

/** A built file holding the value of a secret-looking variable from this environment (a token is 20+ characters) stops the release. */
function checkNoSecrets(out) {
  const secrets = Object.entries(process.env).filter(
    ([name, value]) => /TOKEN|SECRET|KEY|PASSWORD|CREDENTIAL/i.test(name) && value && value.length >= 20,
  );
  for (const rel of readdirSync(out, { recursive: true }).map(String)) {
    const file = path.join(out, rel);
    if (!statSync(file).isFile()) continue;
    const text = readFileSync(file, "latin1");
    for (const [name] of secrets.filter(([, value]) => text.includes(value)))
      refuse(
        `dist/${rel} contains the value of ${name} from this environment; nothing was tagged. Find how it got into the build and remove it.`,
      );
  }
}

/** The release commit: the source tree plus dist/, through a temporary index (the checkout is not touched). */
function releaseCommit(source, out, scratch, version) {
  const env = { ...process.env, GIT_INDEX_FILE: path.join(scratch, "index") };
  git(["read-tree", source], { env });
  const added = [];
  for (const rel of readdirSync(out, { recursive: true }).map(String).sort()) {
    const file = path.join(out, rel);
    const stat = statSync(file);
    if (!stat.isFile()) continue;
    const repoPath = `dist/${rel.split(path.sep).join("/")}`;
    if (repoPath.split("/").includes("node_modules"))
      refuse(`The build put ${repoPath} under node_modules; a release never carries node_modules.`);
    const blob = git(["hash-object", "-w", file]);
    git(["update-index", "--add", "--cacheinfo", `${stat.mode & 0o111 ? "100755" : "100644"},${blob},${repoPath}`], {
      env,
    });
    added.push({ path: repoPath, bytes: stat.size });
  }
  const tree = git(["write-tree"], { env });
  const message = `Release the Fathom action v${version}\n\nBuilt from ${source} by npm run release:action: the source tree plus\n${added.map((a) => `- ${a.path}`).join("\n")}\n`;
  const commit = git(["commit-tree", tree, "-p", source, "-F", "-"], {
    input: message,
    stdio: ["pipe", "pipe", "pipe"],
  });
  return { commit, added };
}

function main() {
  const { version, remote, push } = readOptions();
  const source = checkSource();
  const { versionTag, major } = checkTags(version, knownTags(remote, push));
  const scratch = mkdtempSync(path.join(os.tmpdir(), "fathom-release-"));
  try {
    const out = build(scratch);
    checkNoSecrets(out);
    const { commit, added } = releaseCommit(source, out, scratch, version);
    git(["tag", "-a", versionTag, commit, "-m", `Fathom action ${version}, built from ${source}`]);
    if (major)
      git(["tag", "-f", "-a", major, commit, "-m", `Fathom action ${major}: ${version}, built from ${source}`]);
    console.log(
      `Release commit ${commit.slice(0, 12)} (parent ${source.slice(0, 12)}), tagged ${versionTag}${major ? ` and ${major}` : " (a pre-release: the major tag stays)"}:`,
    );
    for (const a of added) console.log(`  ${a.path.padEnd(48)} ${(a.bytes / 1024).toFixed(1).padStart(8)} KB`);
    const refs = [`refs/tags/${versionTag}`, ...(major ? [`+refs/tags/${major}`] : [])];
    if (!push) {
      console.log(`Not pushed. To publish: git push --atomic ${remote} ${refs.join(" ")}`);
      return;
    }
    const pushed = spawnSync("git", ["push", "--atomic", remote, ...refs], { cwd: root, encoding: "utf8" });
    if (pushed.status !== 0)
      refuse(
        `Pushing the tags to ${remote} failed (${pushed.stderr.trim()}). They are made here; once the cause is fixed, push them with: git push --atomic ${remote} ${refs.join(" ")}`,
      );
    console.log(
      `Pushed ${versionTag}${major ? ` and ${major} (moved)` : ""} to ${remote}. Workflows that say uses: OWNER/fathom@${major ?? versionTag} now run it.`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

try {
  main();
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  console.error(`release-action: ${error.message}`);
  process.exit(1);
}
