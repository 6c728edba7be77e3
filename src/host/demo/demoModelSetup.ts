import * as vscode from "vscode";
import { createDemoPlayer, createModel, readCassette, type Cassette, type CassettePlayer } from "../../core";
import type { Logger } from "../log";
import type { ModelSetup } from "../models/modelSetup";
import { readSettings } from "../settings";
import { demoAsset } from "./tryDemo";

/**
 * Where the SDK client believes it sends requests. The demo player is its `fetch` and answers
 * them all, so nothing is sent; `.invalid` never resolves, should anything try.
 */
const DEMO_BASE_URL = "http://recorded-demo.invalid/v1";

/**
 * The model of a demo window (./demoFolders.ts): the bundled recording, played by the demo's
 * rules (src/core/replay/demoPlayer.ts) as the OpenAI-compatible client's `fetch`. No key, no
 * network. The person's other settings (approvals, sandbox, limits) apply as anywhere.
 */
export function createDemoModelSetup(o: { context: vscode.ExtensionContext; log: Logger }): ModelSetup {
  // Read at the first task, not at activation (about 470 KB once decompressed).
  let recording: { cassette: Cassette } | { problem: string } | undefined;
  const load = () =>
    (recording ??= (() => {
      try {
        return { cassette: readCassette(demoAsset(o.context, "cassette.jsonl.br")) };
      } catch (error) {
        return {
          problem: `Fathom could not read its demo recording (${(error as Error).message}). Reinstall Fathom, or open another folder to work with your own model.`,
        };
      }
    })());
  let player: CassettePlayer | undefined;
  const modelId = () => {
    const r = load();
    return "cassette" in r ? r.cassette.header.model : "recorded-demo";
  };
  return {
    async readSetup() {
      const settings = {
        ...readSettings(vscode.workspace.getConfiguration("fathom")),
        provider: "openai-compatible" as const,
        model: modelId(),
        baseUrl: DEMO_BASE_URL,
        modelOverrides: {},
      };
      const r = load();
      return { settings, problem: "problem" in r ? { message: r.problem } : null };
    },
    createModel() {
      const r = load();
      if ("problem" in r) throw new Error(r.problem);
      const workspaceRoot = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      // One player for the window, as `npm run demo` has one for its server: a reload or a new task asks again and gets the same answers.
      player ??= createDemoPlayer(r.cassette, {
        pace: "recorded",
        ...(workspaceRoot ? { workspaceRoot } : {}),
        onDivergence: (d) =>
          o.log.info(`Demo: a request the recording has no answer for (it gets the closing note):\n${d.report}`),
      });
      return createModel({
        provider: "openai-compatible",
        model: r.cassette.header.model,
        baseUrl: DEMO_BASE_URL,
        fetch: player.fetch,
      });
    },
    async listModels() {
      return { models: [{ id: modelId(), name: "a recorded session" }] };
    },
    async chooseModel(model) {
      // The chat shows no Model box in a demo; a pick from elsewhere changes nothing here.
      o.log.info(
        `Demo: ${model || "(default)"} not chosen: this window plays its one recording. Open another folder to use your own model.`,
      );
    },
  };
}
