// What the action's bundle (dist/action.js) loads at run time from outside itself, read from
// esbuild's metafile: a `uses: OWNER/fathom@v1` checkout has the release commit's files and no
// node_modules, so anything the bundle requires or finds beside itself must be in that commit.
import { closeSync, openSync, readSync, readdirSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";

/** Packages the bundle may `require` and do without: each falls back when it is missing. */
export const OPTIONAL_REQUIRES = {
  canvas: "linkedom requires it inside try/catch and uses its own stand-in without it",
};

/**
 * Every non-JavaScript payload (a native program, a .node addon, WebAssembly, a jar) in a bundled
 * package, and what the release does with it. Bundled code finds these next to its own file
 * (import.meta.url, which the build points at dist/action.js), so a shipped one goes to dist/<to>.
 * A payload not listed here stops the release: someone must decide.
 */
export const RUNTIME_PAYLOADS = {
  "@anthropic-ai/sandbox-runtime/vendor/seccomp/x64/apply-seccomp": {
    to: "vendor/seccomp/x64/apply-seccomp",
    why: "the sandbox's seccomp filter (blocks Unix sockets) on x64 runners",
  },
  "@anthropic-ai/sandbox-runtime/vendor/seccomp/arm64/apply-seccomp": {
    to: "vendor/seccomp/arm64/apply-seccomp",
    why: "the same on arm64 runners",
  },
  "@anthropic-ai/sandbox-runtime/vendor/java-proxy-agent/srt-proxy-agent.jar": {
    to: "vendor/java-proxy-agent/srt-proxy-agent.jar",
    why: "makes JVM tools in the sandbox use its proxy (allow-domains)",
  },
  "@anthropic-ai/sandbox-runtime/vendor/srt-win/x64/srt-win.exe": {
    skip: "the Windows sandbox, which Fathom does not use (commands on Windows are refused)",
  },
  "@anthropic-ai/sandbox-runtime/vendor/srt-win/arm64/srt-win.exe": {
    skip: "the Windows sandbox, which Fathom does not use",
  },
};

const MAGIC = [
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0x4d, 0x5a], // PE (MZ)
  [0xcf, 0xfa, 0xed, 0xfe], // Mach-O 64
  [0xca, 0xfe, 0xba, 0xbe], // Mach-O universal (and Java classes)
  [0x00, 0x61, 0x73, 0x6d], // WebAssembly
  [0x50, 0x4b, 0x03, 0x04], // zip: a jar
];

function isBinaryPayload(file) {
  if (/\.(node|wasm|jar|exe|dll|so|dylib)$/.test(file)) return true;
  const head = Buffer.alloc(4);
  const fd = openSync(file, "r");
  try {
    const n = readSync(fd, head, 0, 4, 0);
    return MAGIC.some((m) => m.length <= n && m.every((b, i) => head[i] === b));
  } finally {
    closeSync(fd);
  }
}

/** ".../node_modules/a/node_modules/@s/b/dist/x.js" → ".../node_modules/a/node_modules/@s/b"; plugins' virtual inputs ("ns:…") have none. */
function packageDirOf(input, root) {
  if (/^[\w-]+:/.test(input)) return undefined;
  const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path.resolve(root, input).replaceAll("\\", "/"));
  return m?.[1];
}

/**
 * From the metafile of the action's build (run in `root`): the files to ship beside the bundle
 * ({ from, to, executable }) and the problems that must stop a release.
 */
export function actionRuntimeFiles(metafile, root) {
  const problems = [];
  const files = [];
  for (const [output, info] of Object.entries(metafile.outputs)) {
    if (!output.endsWith(".js")) continue;
    for (const imported of info.imports) {
      if (!imported.external || isBuiltin(imported.path)) continue;
      const name = imported.path.startsWith("@")
        ? imported.path.split("/").slice(0, 2).join("/")
        : imported.path.split("/")[0];
      if (!(name in OPTIONAL_REQUIRES))
        problems.push(
          `the bundle requires "${imported.path}" at run time (${imported.kind}), which a checkout of the release does not have: bundle it (it must not be external), or, if the code does without it, add it to OPTIONAL_REQUIRES in scripts/actionRuntimeFiles.mjs with the reason.`,
        );
    }
  }
  const packageDirs = new Set(
    Object.keys(metafile.inputs)
      .map((input) => packageDirOf(input, root))
      .filter(Boolean),
  );
  for (const absolute of [...packageDirs].sort()) {
    const dir = absolute.replace(/^.*node_modules\//, "");
    for (const rel of readdirSync(absolute, { recursive: true }).map(String)) {
      if (rel.split(path.sep).includes("node_modules")) continue; // a nested package is its own entry
      const file = path.join(absolute, rel);
      const stat = statSync(file);
      if (!stat.isFile() || !isBinaryPayload(file)) continue;
      const key = `${dir}/${rel.split(path.sep).join("/")}`;
      const decision = RUNTIME_PAYLOADS[key];
      if (!decision)
        problems.push(
          `the bundled package ${dir} carries ${rel}, a file its code may load beside itself at run time: decide whether the action needs it and list it in RUNTIME_PAYLOADS in scripts/actionRuntimeFiles.mjs (ship it with "to", or "skip" with the reason).`,
        );
      else if (decision.to) files.push({ from: file, to: decision.to, executable: (stat.mode & 0o111) !== 0 });
    }
  }
  return { files, problems };
}
