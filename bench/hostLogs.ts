// What a bench session's logs say: Fathom's activation line and its output channel.
import * as fs from "node:fs";
import * as path from "node:path";

/** Every file under `dir` (recursively). */
function filesUnder(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** "Fathom 0.1.0 activated in N ms" from Fathom's output channel log under the session's user data. */
export function activationMs(userDataDir: string): number | undefined {
  for (const file of filesUnder(path.join(userDataDir, "logs")).filter((f) => f.endsWith(".log"))) {
    const m = /activated in (\d+) ms/.exec(fs.readFileSync(file, "utf8"));
    if (m) return Number(m[1]);
  }
  return undefined;
}

/** Fathom's log ("Fathom" output channel) under the session's user data. */
export function fathomLog(userDataDir: string): string {
  return filesUnder(path.join(userDataDir, "logs"))
    .filter((f) => /Fathom\.log$/.test(f))
    .map((f) => fs.readFileSync(f, "utf8"))
    .join("\n");
}
