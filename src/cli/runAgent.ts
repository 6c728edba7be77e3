import type { ApprovalGate, ApprovalPolicy } from "../core/approval";
import type { HeadlessAgentOptions, HeadlessRunOptions } from "../core/headless/headlessRun";
import type { CommandSandbox } from "../core/executor/sandbox";
import type { createModel } from "../core/model/createModel";
import { headlessCodeIntelligence } from "../core/codeIntel/lsp/headlessCodeIntel";
import { memoryFolders } from "../core/memory/memoryStore";
import type { QuestionAsker } from "../core/question";
import {
  AUTOPILOT_DEFAULT_MAX_STEPS,
  AUTOPILOT_DEFAULT_SPEND_CAP_USD,
  type ApprovalLevel,
} from "../core/trust/approvalLevels";
import { cliHooks } from "./cliHooks";
import type { CliOptions } from "./runOptions";
import type { PreparedTask } from "./runPlace";

type Model = ReturnType<typeof createModel>;

interface AgentParts {
  opts: CliOptions;
  taskId: string;
  /** What the run needs of the prepared task (the ACP agent's sessions give the same). */
  task: Pick<PreparedTask, "root" | "backend" | "team" | "checkpoints">;
  model: Model;
  makeModel: (id: string) => Model;
  sandbox: CommandSandbox | null | undefined;
  policy: ApprovalPolicy;
  /** The permission level, read at each tool call (an ACP client may switch it mid-session). */
  level: () => ApprovalLevel;
  gate: ApprovalGate;
  questions: QuestionAsker;
  promptIo?: Parameters<typeof cliHooks>[1];
}

/**
 * The run's code intelligence (a language server started at the first use), unless
 * --no-code-intel; what it says (a server missing, started, crashed) goes to stderr.
 */
export function cliCodeIntel(opts: Pick<CliOptions, "codeIntel">): HeadlessRunOptions["codeIntel"] {
  return opts.codeIntel
    ? (run) => headlessCodeIntelligence({ ...run, log: (line) => process.stderr.write(`fathom: ${line}\n`) })
    : undefined;
}

/** The agent's options for the run, built when the run starts (the hook files are read then). */
export function cliAgentOptions(parts: AgentParts): () => Promise<HeadlessAgentOptions> {
  const { opts, taskId, task, model, makeModel, sandbox, policy, level, gate, questions, promptIo } = parts;
  const { root, backend, team, checkpoints } = task;
  return async () => {
    // The repository's hook files are read where the person works; hooks run in the task's folder.
    const hooks = await cliHooks(
      { repoRoot: opts.cwd, allowWorkspaceHooks: opts.allowWorkspaceHooks, sandbox },
      promptIo,
      process.stderr,
    );
    return {
      checkpoints: { store: checkpoints, taskId, onError: (m) => process.stderr.write(`fathom: ${m}\n`) },
      model,
      workspaceRoot: root,
      backend,
      teamFiles: team.catalog,
      modelFor: makeModel,
      ...(team.agent ? { agent: team.agent } : {}),
      ...(team.narrowTools ? { narrowTools: team.narrowTools } : {}),
      memory: { folders: memoryFolders(opts.cwd), allowWrites: opts.allowMemoryWrites },
      ...(hooks.length ? { hooks: { hooks, cwd: root, sessionId: taskId, ...(sandbox ? { sandbox } : {}) } } : {}),
      approvalPolicy: policy,
      approvalLevel: level,
      // Autopilot's budget: the person's --max-steps and --spend-cap, else 50 calls and $2.
      extraLimits: () =>
        level() === "autopilot"
          ? {
              maxSteps: opts.maxSteps ?? AUTOPILOT_DEFAULT_MAX_STEPS,
              spendCapUsd: opts.spendCapUsd ?? AUTOPILOT_DEFAULT_SPEND_CAP_USD,
              name: "Autopilot",
            }
          : undefined,
      // Without the sandbox they asked for, every command reaches the person, --yes or not.
      ...(sandbox === null
        ? {
            commands: {
              alwaysAsk:
                "The OS sandbox cannot run here, so this command would run with your full rights (files, keys, network).",
            },
          }
        : {}),
      approvalGate: gate,
      questions,
      webFetch: { allowDomains: opts.allowDomains },
      ...(opts.maxSteps ? { maxSteps: opts.maxSteps } : {}),
      ...(opts.spendCapUsd ? { spendCapUsd: opts.spendCapUsd } : {}),
    };
  };
}
