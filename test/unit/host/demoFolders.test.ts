// Which windows play the demo's recording: only a folder "Fathom: Try the Demo Task" made, as the
// extension's global state remembers it; never anything a folder's own files could say.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  DEMO_FOLDERS_KEPT,
  DEMO_FOLDERS_KEY,
  isDemoWindow,
  rememberDemoFolder,
  type StateStore,
} from "../../../src/host/demo/demoFolders";

function memento(initial: Record<string, unknown> = {}): StateStore & { values: Record<string, unknown> } {
  const values = { ...initial };
  return {
    values,
    get: <T>(key: string) => values[key] as T | undefined,
    update: async (key: string, value: unknown) => {
      values[key] = value;
    },
  };
}

describe("demo folders", () => {
  const root = mkdtempSync(path.join(tmpdir(), "fathom-demo-folders-"));
  const folder = (name: string) => path.join(root, name, "fathom-demo");

  it("a folder is the demo only when the global state says so, whatever it contains", async () => {
    const state = memento();
    const claimed = folder("claimed");
    // A repository dressed as the demo (the sample project, a marker file) is still not one.
    mkdirSync(claimed, { recursive: true });
    writeFileSync(path.join(claimed, ".fathom-demo"), "yes");
    assert.equal(isDemoWindow(state, [claimed]), false);

    const made = folder("made");
    await rememberDemoFolder(state, made);
    assert.equal(isDemoWindow(state, [made]), true);
    assert.equal(
      isDemoWindow(state, [`${made}${path.sep}`]),
      true,
      "the same folder written with a trailing separator",
    );
    assert.equal(isDemoWindow(state, [claimed]), false);
  });

  it("a window with the demo folder and another, or none, is not a demo window", async () => {
    const state = memento();
    const made = folder("multi");
    await rememberDemoFolder(state, made);
    assert.equal(isDemoWindow(state, [made, folder("other")]), false);
    assert.equal(isDemoWindow(state, []), false);
  });

  it("keeps the newest few, newest first, and hands back the ones it forgot", async () => {
    const state = memento();
    const made = Array.from({ length: DEMO_FOLDERS_KEPT + 2 }, (_, i) => folder(`run-${i}`));
    const forgotten: string[] = [];
    for (const f of made) forgotten.push(...(await rememberDemoFolder(state, f)));
    assert.deepEqual(state.values[DEMO_FOLDERS_KEY], made.slice(-DEMO_FOLDERS_KEPT).reverse());
    assert.deepEqual(forgotten, made.slice(0, 2));
    assert.equal(isDemoWindow(state, [made[0]!]), false, "a forgotten copy plays no recording any more");
    // Remembering one again moves it to the front without a duplicate.
    await rememberDemoFolder(state, made.at(-2)!);
    assert.deepEqual(state.values[DEMO_FOLDERS_KEY], [made.at(-2), made.at(-1), made.at(-3)]);
  });

  it("ignores a damaged entry in the state", () => {
    const state = memento({ [DEMO_FOLDERS_KEY]: "not a list" });
    assert.equal(isDemoWindow(state, ["not a list"]), false);
    const mixed = memento({ [DEMO_FOLDERS_KEY]: [42, folder("ok")] });
    assert.equal(isDemoWindow(mixed, [folder("ok")]), true);
  });
});
