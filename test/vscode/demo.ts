// `npm run demo`: the VS Code of `npm start`, with Fathom talking to a recorded model instead of
// a real one, so anyone can watch a whole task without an API key: todos, search and read, an
// edit shown as a diff that the person approves, the tests run in the integrated terminal, the
// final answer. The recording is test/fixtures/demo/cassette.jsonl (the format of `fathom run
// --record`, played by recording.ts) on a fresh copy of the sample workspace each run.
//
// code-server gets FATHOM_DEMO=1, which its extension host inherits: Fathom then marks the chat
// as a demo. The scripted model server and code-server listen on 127.0.0.1 only and Ctrl+C stops
// both. Port: 8090 (so it runs beside `npm start` on 8080), or FATHOM_PORT / --port N; the next
// free one when that is taken.
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { loadDemoCassette, playDemo } from "../fixtures/demo/recording.js";
import type { CassettePlayer } from "../../src/core/replay/cassettePlayer.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scriptedModelServer.js";
import { onCleanup } from "./harness/cleanup.js";
import { cacheDir } from "./harness/paths.js";
import { choosePort, runMain, serveFathom, untilStopped, type Served, type ServeOptions } from "./start.js";

export interface Demo extends Served {
  /** The recorded model (OpenAI-compatible); its `requests` are what Fathom sent. */
  model: ScriptedModelServer;
  /** Plays the cassette; `divergence` is set once a request had no recorded answer. */
  replay: CassettePlayer;
  prompt: string;
  /** Stops VS Code and the recorded model (Ctrl+C does too). */
  stop(): Promise<void>;
}

/** Starts the recorded model and VS Code with Fathom pointed at it. Both stop on cleanup. */
export async function startDemo(o: Omit<ServeOptions, "fresh" | "label"> & { label?: string }): Promise<Demo> {
  const cassette = loadDemoCassette();
  const model = await startScriptedModelServer([], { host: "127.0.0.1" });
  const stopModel = onCleanup("recorded model server", () => model.close());
  const replay = playDemo(model, cassette, {
    // Said where the person who started the demo sees it; the chat gets the closing note.
    onDivergence: (d) =>
      console.log(`\n  [demo] a request the recording has no answer for:\n${d.report.replace(/^/gm, "    ")}\n`),
  });
  let served: Served;
  try {
    served = await serveFathom({
      ...o,
      label: o.label ?? "demo",
      // Every run starts from the sample project as it is in the repository, bug included.
      fresh: true,
      settings: {
        ...o.settings,
        "fathom.provider": "openai-compatible",
        "fathom.baseUrl": model.baseUrlOpenAI,
        "fathom.model": cassette.header.model,
      },
      env: { ...o.env, FATHOM_DEMO: "1" },
    });
  } catch (err) {
    await stopModel();
    throw err;
  }
  return {
    ...served,
    model,
    replay,
    prompt: cassette.header.prompt ?? "",
    stop: async () => {
      await served.server.stop();
      await stopModel();
    },
  };
}

async function main(): Promise<void> {
  const port = await choosePort("npm run demo", 8090, "demo");
  const demo = await startDemo({ port, stateDir: path.join(cacheDir, "demo") });
  console.log(`
  Fathom demo in VS Code: ${demo.server.folderUrl()}

  Open that address in your browser. Here Fathom talks to a recorded session, not to a real
  model: no API key is needed and nothing leaves this machine. Click the Fathom icon in the
  activity bar on the left, type this in Message (any first message starts the recording):

      ${demo.prompt}

  and press Send. Watch it plan with todos, search and read the code, then propose a fix that
  opens as a diff: review it and press Approve (or Reject, and see what it says). Approve the
  test run too: it runs in the "Fathom" terminal, and the tests pass. To watch it again, stop
  the demo and start it again: each run begins with the unfixed project.

  workspace:       ${demo.workspaceDir} (a fresh copy each run)
  code-server log: ${demo.server.logFile}
  Ctrl+C stops it.
`);
  await untilStopped(demo.server);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runMain("demo", main);
