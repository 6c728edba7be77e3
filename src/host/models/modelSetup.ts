import * as vscode from "vscode";
import { createModel, listModels, overrideFor, type ChatModel, type ListedModel } from "../../core";
import { keyAllowedFor, type ApiKeyStore } from "../apiKeys";
import type { Log } from "../log";
import { endpointOrigin, providerName, readSettings, setupProblemFor, type FathomSettings } from "../settings";
import type { SessionEnv } from "../wiring/sessionEnv";
import { ModelChoice } from "./modelChoice";
import type { VscodeModels } from "./vscodeModels";

/** The window's settings, API key and model pick: what every task and one-shot request starts from. */
export type ModelSetup = Pick<SessionEnv, "readSetup" | "createModel"> &
  Required<Pick<SessionEnv, "listModels" | "chooseModel">>;

/** Reads the settings and key for a request, and makes its model (VS Code's, or an API's). */
export function createModelSetup(o: {
  context: vscode.ExtensionContext;
  keys: ApiKeyStore;
  log: Log;
  vscodeModels: VscodeModels;
}): ModelSetup {
  const warnedIgnored = new Set<string>();
  /** Once per window: a workspace tried to set what only the person may set. */
  const warnIgnored = (settings: FathomSettings) => {
    const fresh = settings.ignoredFromWorkspace.filter((key) => !warnedIgnored.has(key));
    if (fresh.length === 0) return;
    for (const key of fresh) warnedIgnored.add(key);
    const message = `Fathom ignored ${fresh.join(", ")} from this workspace's settings: only your user settings can turn on auto-approval, allow commands, change where requests (and your key) go, or tell Fathom about models.`;
    o.log.warn(message);
    void vscode.window.showWarningMessage(message);
  };
  const warnedOverrides = new Set<string>();
  /** Once per window for each override left out, and why. */
  const warnOverrides = (problems: string[]) => {
    for (const problem of problems.filter((p) => !warnedOverrides.has(p))) {
      warnedOverrides.add(problem);
      o.log.warn(problem);
      void vscode.window.showWarningMessage(`Fathom: ${problem}`);
    }
  };
  const choice = new ModelChoice(o.context.workspaceState);
  /** The Model box's last list, by id (what a pick from it is known to be). */
  let listed = new Map<string, ListedModel>();
  return {
    async readSetup() {
      const raw = readSettings(vscode.workspace.getConfiguration("fathom"));
      warnIgnored(raw);
      warnOverrides([...raw.modelOverrideProblems, ...raw.approvals.problems]);
      const settings = choice.apply(raw);
      if (!vscode.workspace.workspaceFolders?.[0])
        return {
          settings,
          problem: {
            message:
              "Open a folder (File > Open Folder) to work with Fathom: it reads, edits and runs commands in a workspace.",
          },
        };
      if (settings.provider === "vscode") {
        const found = await o.vscodeModels.resolve(settings.model);
        return { settings, problem: "problem" in found ? found.problem : null };
      }
      const provider = settings.provider;
      const stored = await o.keys.get(provider);
      o.log.addSecret(stored?.key);
      const origin = endpointOrigin(provider, settings.baseUrl);
      // A stored key goes only where it was saved for, or where the person has said yes to.
      const apiKey = stored && keyAllowedFor(stored, origin) ? stored.key : undefined;
      const problem =
        stored && !apiKey
          ? {
              message: `Your ${providerName(provider)} API key was saved for ${stored.origins.join(", ") || "another host"}, and Base Url now points to ${origin}. Fathom sends it there only once you confirm that host; or set another key for it.`,
              action: "fathom.allowKeyForHost" as const,
              actionLabel: `Send Key to ${new URL(origin).host}`,
            }
          : setupProblemFor(settings, Boolean(apiKey));
      return { settings, ...(apiKey ? { apiKey } : {}), problem };
    },
    createModel(settings, apiKey) {
      if (settings.provider === "vscode") return o.vscodeModels.create(settings.model, settings.modelOverrides);
      const override = overrideFor(settings.modelOverrides, settings.model);
      return createModel({
        provider: settings.provider,
        model: settings.model,
        baseUrl: settings.baseUrl,
        ...(apiKey ? { apiKey } : {}),
        ...(override ? { override } : {}),
      });
    },
    async listModels(settings, apiKey) {
      const list =
        settings.provider === "vscode"
          ? await o.vscodeModels.list()
          : await listModels({
              provider: settings.provider,
              ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
              ...(apiKey ? { apiKey } : {}),
              overrides: settings.modelOverrides,
            });
      listed = new Map(list.models.map((m) => [m.id, m]));
      return list;
    },
    async chooseModel(model) {
      // VS Code's models say what they are each time they are looked up; the others' list is remembered with the pick.
      const raw = readSettings(vscode.workspace.getConfiguration("fathom"));
      await choice.set(raw, model, raw.provider === "vscode" ? undefined : listed.get(model));
      o.log.info(`Model for this workspace: ${model || "(the provider's default)"}`);
    },
  };
}

/**
 * The model a one-shot request (an inline edit, a commit message) uses: the one a task would,
 * or what the person must fix first, written for them.
 */
export async function oneShotModel(
  setup: ModelSetup,
): Promise<{ model: ChatModel; settings: FathomSettings } | { problem: string }> {
  const { settings, apiKey, problem } = await setup.readSetup();
  if (problem) return { problem: problem.message };
  return { model: setup.createModel(settings, apiKey), settings };
}
