import type { BackendProtocol } from "../backends/protocol";
import { approveAll, type ApprovalGate, type ApprovalPolicy } from "../approval";
import type { CommandPatterns } from "../trust/commandPolicy";
import type { Executor } from "../executor/types";
import { costOf as tableCostOf } from "../model/modelTable";
import type { ChatModel, ImagePart, Usage } from "../model/types";
import { approvalsMiddleware } from "../middleware/approvals";
import { danglingToolCallsMiddleware } from "../middleware/danglingToolCalls";
import { evictionMiddleware } from "../middleware/eviction";
import { filesystemMiddleware } from "../middleware/filesystem";
import { codeIntelligenceMiddleware } from "../middleware/codeIntelligence";
import { terminalOutputMiddleware, type PersonTerminals } from "../middleware/terminalOutput";
import type { CodeIntelligence } from "../codeIntel/codeIntelligence";
import { uniqueAttachments, type Attachment } from "../attachments";
import { mentionsMiddleware, type McpResourceReader } from "../middleware/mentions";
import {
  CheckpointingBackend,
  checkpointsMiddleware,
  type CheckpointPosition,
} from "../checkpoints/checkpointingBackend";
import type { CheckpointStore } from "../checkpoints/checkpointStore";
import { rulesMiddleware } from "../middleware/rules";
import { skillsMiddleware } from "../middleware/skills";
import { agentNarrowing, allowsTool, modelForName, type ToolNarrowing } from "../teamFiles/agentRuns";
import type { TeamCatalog } from "../teamFiles/types";
import { withUserSkills } from "../teamFiles/userSkillRoutes";
import {
  GENERAL_PURPOSE_SUBAGENT,
  subagentsMiddleware,
  type SubagentRunner,
  type SubagentSpec,
} from "../middleware/subagents";
import { summarizationMiddleware, type SummarizationOptions } from "../middleware/summarization";
import { testsBeforeAnswerMiddleware } from "../middleware/testsBeforeAnswer";
import { smallTaskLoopMiddleware } from "../middleware/smallTaskLoop";
import { todosMiddleware } from "../middleware/todos";
import { askUserMiddleware } from "../middleware/askUser";
import { planModeMiddleware } from "../middleware/planMode";
import { webFetchMiddleware, type WebFetchOptions } from "../middleware/webFetch";
import { noOneToAsk, type QuestionAsker } from "../question";
import { deferredToolsMiddleware } from "../middleware/deferredTools";
import { hooksMiddleware, type HooksOptions } from "../middleware/hooks";
import { memoryMiddleware } from "../middleware/memory";
import { isMemoryPath, withMemory, type MemoryFolders } from "../memory/memoryStore";
import type { Middleware } from "../middleware/types";
import { createFileTools } from "../tools/fileTools";
import { RUN_TESTS } from "../tools/runTestsTool";
import { secretFileMatcher } from "../trust/secretFiles";
import type { Tool } from "../tools/tool";
import { EventChannel } from "./eventChannel";
import { type AgentEvent } from "../run/events";
import { newRunState, parseRunState, type RunState, type TaskMode } from "../run/runState";
import { toolSpecOf } from "../tools/jsonSchema";
import { runLoop, type LoopConfig } from "./loop";
import type { SteeringInbox } from "./steering";
import { smallSystemPrompt } from "./smallModelProfile";
import { baseSystemPrompt } from "./systemPrompt";
import { TaskBudget } from "../run/taskBudget";

export const DEFAULT_MAX_STEPS = 100;
export const DEFAULT_MAX_CONSECUTIVE_TOOL_ERRORS = 10;

export interface AgentOptions {
  model: ChatModel;
  /** Absolute path of the workspace root: commands run here, AGENTS.md is read from here. */
  workspaceRoot: string;
  /** The file backend; the six file tools are built over it. */
  backend?: BackendProtocol;
  /** Replaces the file tools built from `backend` (a function gets the backend writes go through: the checkpointing one). */
  fileTools?: readonly Tool[] | ((backend: BackendProtocol) => readonly Tool[]);
  /** Extra tools. */
  tools?: readonly Tool[];
  /** Extra middleware, inside the built-in ones. */
  middleware?: readonly Middleware[];
  /** Without an executor there is no `execute` tool. */
  executor?: Executor;
  executeTimeoutMs?: number;
  /** `run_tests` runs this command (`fathom.testCommand`) instead of the one it finds. */
  testCommand?: string;
  /** Who approves calls the policy marks "ask". Default: approve everything (tests, --yes). */
  approvalGate?: ApprovalGate;
  /** `web_fetch`'s rules (domains allowed without asking); false: no web_fetch tool. */
  webFetch?: WebFetchOptions | false;
  /** Who answers `ask_user` (default: nobody; the model is told to decide and say what it assumed). */
  questions?: QuestionAsker;
  /** Default: read and other tools auto; edit and execute ask. */
  approvalPolicy?: ApprovalPolicy;
  /** Allow/deny patterns for `execute`; deny wins even over auto-approve. */
  commands?: CommandPatterns;
  /** Extra instructions appended to the built-in system prompt. */
  systemPrompt?: string;
  /** Model calls per run before stopping, subagents' calls included (default 100). */
  maxSteps?: number;
  /** Stop the task when its spend reaches this many US dollars. */
  spendCapUsd?: number;
  /** Subagents (`task` calls) running at once; more wait their turn (default 4). */
  maxParallelSubagents?: number;
  /** Price of one call; default from the model table (0 when unknown). */
  costOf?: (usage: Usage) => number;
  /** Custom subagents for `task`; the general-purpose one is added unless disabled. */
  subagents?: readonly SubagentSpec[];
  generalPurposeSubagent?: boolean;
  /** Overrides the model's context window for summarization. */
  contextWindow?: number;
  summarization?: Omit<SummarizationOptions, "contextWindow">;
  evictionThresholdChars?: number;
  maxConsecutiveToolErrors?: number;
  /** Read AGENTS.md from the workspace root (default true). */
  rules?: boolean;
  /** MCP tools (`mcp__…`) whose schemas pass this many characters are loaded on demand (default 4,000). */
  deferToolsOverChars?: number;
  /** Checkpoints of every file this task writes (and the commands it runs), in this store. */
  checkpoints?: { store: CheckpointStore; taskId: string; onError?: (message: string) => void };
  /** Reads MCP resources the person mentions as `@mcp:<server>:<uri>`. */
  readMcpResource?: McpResourceReader;
  /** Additions to (and `!` removals from) the built-in list of secret files (./secretFiles.ts). */
  secretFiles?: readonly string[];
  /**
   * The team files found (../teamFiles): their rules (instead of reading the root's at each run),
   * skills (names in the prompt, `load_skill`; the person's own read through a read-only route),
   * and custom agents (subagent types for `task`).
   */
  teamFiles?: TeamCatalog;
  /** Run as this custom agent of `teamFiles` (its instructions, model and tool list) instead of Fathom's own. */
  agent?: string;
  /** Only these tools for this run (a prompt file's `tools`, Copilot's `ask` mode): a narrowing, never a widening. */
  narrowTools?: ToolNarrowing;
  /** The model for a name a team file gives (undefined: the task's model answers). */
  modelFor?: (model: string) => ChatModel | undefined;
  /** The person's hooks (and a workspace's they approved), run around the run and each tool call. */
  hooks?: HooksOptions;
  /** Memory: `/memories/` routed to these folders, its index in the prompt; writes asked unless `allowWrites`. */
  memory?: { folders: MemoryFolders; allowWrites?: boolean };
  /** A language server to ask (VS Code's providers in the host): the code intelligence tools, only with a backend. */
  codeIntelligence?: CodeIntelligence;
  /** The person's own terminals (VS Code's integrated ones): the `terminal_output` tool. */
  personTerminals?: PersonTerminals;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** A subagent's run spends from its parent's budget (set by the `task` tool, not by callers). */
  budget?: TaskBudget;
  /** A saved state to continue (from a `done` event or disk). It is copied, not changed. */
  state?: RunState;
  /** Images the person attached to `input` (sent only to models that read images). */
  images?: ImagePart[];
  /** Files, ranges, terminal output and problems the person attached to `input` (read when the model first sees it). */
  attachments?: Attachment[];
  /** A subagent's: its parent's scratch files (evicted results under /large_tool_results/), readable by it. */
  parentFiles?: Readonly<Record<string, string>>;
  /**
   * Resuming `state`: ids of its last tool calls that were waiting for the person's approval when
   * the run stopped (nothing of them ran), to be asked again before the model is called. Other
   * unanswered calls are answered as not completed.
   */
  askAgain?: readonly string[];
  /** Messages the person sends while this run works ("Send now"): the model reads them at its next step. */
  steering?: SteeringInbox;
  /** "plan": only tools that change nothing, ending with a plan; "act": everything. Default: the state's mode (act). */
  mode?: TaskMode;
}

export interface Agent {
  /**
   * Runs one turn of the task: appends `input` (if not empty) as the person's message and loops
   * until the model answers. Always ends with exactly one `done` event. Stopping iteration early
   * cancels the run.
   */
  run(input: string, options?: RunOptions): AsyncIterable<AgentEvent>;
  /** The tools the model sees. */
  readonly tools: readonly Tool[];
  /** The system prompt without per-run sections (AGENTS.md, which is read at each run). */
  readonly systemPrompt: string;
}

interface Internal {
  subagentType?: string;
  allowedTools?: readonly string[];
  /** The parent's narrowings: a subagent never has a tool its parent could not use. */
  inherited?: readonly (ToolNarrowing | undefined)[];
}

/** A custom agent of the catalog as a `task` subagent type. */
function customSubagents(options: AgentOptions): SubagentSpec[] {
  return (options.teamFiles?.agents ?? []).map((a) => {
    const model = a.model ? modelForName(a.model, options.model.provider).model : undefined;
    const chosen = model ? options.modelFor?.(model) : undefined;
    return {
      name: a.name,
      description: a.description,
      systemPrompt: `# Agent: ${a.name} (from ${a.file.label})\n${a.instructions}`,
      ...(a.tools ? { tools: a.tools } : {}),
      ...(chosen ? { model: chosen } : {}),
    };
  });
}

/** What running as a custom agent changes: its instructions, tools and model, and notes on what it asks for that is not used. */
function asCustomAgent(options: AgentOptions): { options: AgentOptions; narrowing?: ToolNarrowing; notes: string[] } {
  const def = options.agent ? options.teamFiles?.agents.find((a) => a.name === options.agent) : undefined;
  if (!options.agent) return { options, notes: [] };
  if (!def) throw new Error(`No custom agent is named "${options.agent}".`);
  const notes: string[] = [];
  const wanted = modelForName(def.model, options.model.provider);
  if (wanted.note) notes.push(`Agent ${def.name}: ${wanted.note}.`);
  const model = wanted.model ? options.modelFor?.(wanted.model) : undefined;
  const systemPrompt = [
    options.systemPrompt,
    `# Agent: ${def.name} (from ${def.file.label})\nYou act as this agent for the whole task:\n${def.instructions}`,
  ]
    .filter(Boolean)
    .join("\n\n");
  const narrowing = agentNarrowing(def);
  return {
    options: { ...options, systemPrompt, ...(model ? { model } : {}) },
    ...(narrowing ? { narrowing } : {}),
    notes,
  };
}

export function createAgent(given: AgentOptions): Agent {
  // The person's own skills are read through read-only routes of the backend, never a wider guard.
  const options =
    given.backend && given.teamFiles
      ? { ...given, backend: withUserSkills(given.backend, given.teamFiles.skills) }
      : given;
  // Memory is routed outside the checkpoints: a restore takes back workspace files, never what was remembered.
  const remembering = (o: AgentOptions): AgentOptions =>
    o.memory && o.backend ? { ...o, backend: withMemory(o.backend, o.memory.folders) } : o;
  const cp = options.checkpoints;
  if (!cp || !options.backend) return buildAgent(remembering(options), {});
  // Every write (the subagents' too) goes through the checkpointing backend.
  const position: CheckpointPosition = { conversationLength: 0 };
  const backend = new CheckpointingBackend(options.backend, cp.store, cp.taskId, position, cp.onError);
  return buildAgent(
    remembering({
      ...options,
      backend,
      middleware: [checkpointsMiddleware({ ...cp, position }), ...(options.middleware ?? [])],
    }),
    {},
  );
}

function buildAgent(given: AgentOptions, internal: Internal): Agent {
  const isSubagent = internal.subagentType !== undefined;
  const custom = isSubagent ? { options: given, notes: [] as string[] } : asCustomAgent(given);
  const options = custom.options;
  const narrowings: (ToolNarrowing | undefined)[] = [
    ...(internal.inherited ?? []),
    internal.allowedTools ? { names: internal.allowedTools } : undefined,
    "narrowing" in custom ? custom.narrowing : undefined,
    isSubagent ? undefined : options.narrowTools,
  ];
  const allows = (name: string, kind: Tool["kind"]) => allowsTool(narrowings, name, kind);
  const isSecret = secretFileMatcher(options.secretFiles);
  const ownTools = options.fileTools;
  const fileTools =
    typeof ownTools === "function"
      ? options.backend
        ? ownTools(options.backend)
        : []
      : (ownTools ?? (options.backend ? createFileTools(options.backend, { isSecret }) : []));
  const subagentSpecs = isSubagent
    ? []
    : [
        ...(options.generalPurposeSubagent === false ? [] : [GENERAL_PURPOSE_SUBAGENT]),
        ...(options.subagents ?? []),
        ...customSubagents(options),
      ];

  const subagentSystem = (spec: SubagentSpec) => [given.systemPrompt, spec.systemPrompt].filter(Boolean).join("\n\n");
  const childCache = new Map<string, Agent>();
  const runSubagent: SubagentRunner = (spec, description, signal, budget, parentFiles, mode) => {
    let child = childCache.get(spec.name);
    if (!child) {
      child = buildAgent(
        { ...given, model: spec.model ?? options.model, systemPrompt: subagentSystem(spec) },
        { subagentType: spec.name, inherited: narrowings, ...(spec.tools ? { allowedTools: spec.tools } : {}) },
      );
      childCache.set(spec.name, child);
    }
    return child.run(description, { signal, budget, parentFiles, ...(mode ? { mode } : {}) });
  };

  const toolMap = new Map<string, Tool>();
  const middleware: Middleware[] = [
    // Outermost: a call Plan mode refuses is never run by a hook nor asked about.
    planModeMiddleware(() => toolMap),
    // Then a hook's block comes before anyone is asked, and its ask or allow reaches the approvals.
    ...(options.hooks?.hooks.length ? [hooksMiddleware(options.hooks)] : []),
    approvalsMiddleware({
      gate: options.approvalGate ?? approveAll,
      ...(options.approvalPolicy ? { policy: options.approvalPolicy } : {}),
      ...(options.commands ? { commands: options.commands } : {}),
      isSecret,
      ...(options.memory ? { memory: { isMemoryPath, allowWrites: options.memory.allowWrites === true } } : {}),
    }),
    todosMiddleware(),
    askUserMiddleware(options.questions ?? noOneToAsk),
    ...(options.webFetch === false ? [] : [webFetchMiddleware(options.webFetch ?? {})]),
    filesystemMiddleware({
      fileTools,
      workspaceRoot: options.workspaceRoot,
      ...(options.executor ? { executor: options.executor } : {}),
      ...(options.executeTimeoutMs ? { defaultTimeoutMs: options.executeTimeoutMs } : {}),
      ...(options.backend ? { backend: options.backend } : {}),
      ...(options.testCommand ? { testCommand: options.testCommand } : {}),
    }),
    ...(options.codeIntelligence && options.backend
      ? [codeIntelligenceMiddleware({ intel: options.codeIntelligence, backend: options.backend, isSecret })]
      : []),
    ...(options.personTerminals ? [terminalOutputMiddleware(options.personTerminals)] : []),
    testsBeforeAnswerMiddleware(() => toolMap),
    subagentsMiddleware({ subagents: allows("task", "other") ? subagentSpecs : [], runSubagent }),
    ...(options.teamFiles?.skills.length && options.backend && allows("load_skill", "read")
      ? [skillsMiddleware({ skills: options.teamFiles.skills, backend: options.backend })]
      : []),
    ...(options.rules === false
      ? []
      : [
          rulesMiddleware({
            workspaceRoot: options.workspaceRoot,
            ...(options.backend ? { backend: options.backend } : {}),
            ...(options.teamFiles ? { catalog: options.teamFiles } : {}),
          }),
        ]),
    ...(custom.notes.length ? [notesMiddleware(custom.notes)] : []),
    evictionMiddleware(options.evictionThresholdChars ? { thresholdChars: options.evictionThresholdChars } : {}),
    danglingToolCallsMiddleware(),
    ...(options.backend && !isSubagent ? [mentionsMiddleware(options.backend, options.readMcpResource, isSecret)] : []),
    ...(options.backend && !isSubagent
      ? [smallTaskLoopMiddleware({ backend: options.backend, tools: () => toolMap, isSecret })]
      : []),
    summarizationMiddleware({
      ...options.summarization,
      ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}),
    }),
    ...(options.memory ? [memoryMiddleware({ folders: options.memory.folders })] : []),
    deferredToolsMiddleware({
      tools: (options.tools ?? []).filter((t) => t.name.startsWith("mcp__")),
      ...(options.deferToolsOverChars !== undefined ? { thresholdChars: options.deferToolsOverChars } : {}),
    }),
    ...(options.middleware ?? []),
  ];

  let tools: Tool[] = [...middleware.flatMap((mw) => mw.tools ?? []), ...(options.tools ?? [])];
  // run_tests runs its command as an execute call: only where execute is offered.
  tools = tools.filter((t) => allows(t.name, t.kind) && (t.name !== RUN_TESTS || allows("execute", "execute")));
  for (const tool of tools) {
    if (toolMap.has(tool.name)) throw new Error(`Two tools are named "${tool.name}"; tool names must be unique.`);
    toolMap.set(tool.name, tool);
  }
  const model = options.model;
  const systemPrompt = baseSystemPrompt({
    workspaceRoot: options.workspaceRoot,
    ...(options.systemPrompt ? { extra: options.systemPrompt } : {}),
  });
  const smallPrompt = smallSystemPrompt(options.systemPrompt ? { extra: options.systemPrompt } : {});
  const config: LoopConfig = {
    model,
    tools: toolMap,
    toolSpecs: tools.map(toolSpecOf),
    middleware,
    systemPrompt,
    smallSystemPrompt: smallPrompt,
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    ...(options.spendCapUsd !== undefined ? { spendCapUsd: options.spendCapUsd } : {}),
    // Read at each call: the model may change during the task (the person picked another).
    costOf: options.costOf ?? ((usage) => (model.costOf ? model.costOf(usage) : tableCostOf(model.model, usage)) ?? 0),
    maxConsecutiveToolErrors: options.maxConsecutiveToolErrors ?? DEFAULT_MAX_CONSECUTIVE_TOOL_ERRORS,
    workspaceRoot: options.workspaceRoot,
    ...(internal.subagentType ? { subagentType: internal.subagentType } : {}),
  };

  return {
    tools,
    systemPrompt,
    run(input, runOptions = {}) {
      const controller = new AbortController();
      const outer = runOptions.signal;
      const forward = () => controller.abort(outer?.reason);
      if (outer?.aborted) controller.abort(outer.reason);
      else outer?.addEventListener("abort", forward, { once: true });
      const channel = new EventChannel<AgentEvent>(() => controller.abort());

      let state: RunState;
      if (runOptions.state) {
        const parsed = parseRunState(runOptions.state);
        if ("error" in parsed) {
          const empty = newRunState();
          channel.push({
            type: "error",
            kind: "internal",
            message: `Cannot resume: ${parsed.error}. Start a new task.`,
          });
          channel.push({
            type: "done",
            reason: "error",
            finalText: "",
            message: `Cannot resume: ${parsed.error}`,
            state: empty,
          });
          channel.close();
          return channel;
        }
        state = parsed.state;
      } else {
        state = newRunState();
      }
      if (runOptions.mode) state.mode = runOptions.mode;
      const images = runOptions.images?.length ? { images: runOptions.images } : {};
      const attachments = runOptions.attachments?.length
        ? { attachments: uniqueAttachments(runOptions.attachments) }
        : {};
      if (input.trim() !== "" || images.images || attachments.attachments)
        state.messages.push({ role: "user", content: input, ...images, ...attachments });

      const budget =
        runOptions.budget ??
        new TaskBudget(config.maxSteps, config.spendCapUsd, state.costUsd, options.maxParallelSubagents);
      // Asked again only when nothing came after the calls (no results, no new message).
      const askAgain =
        input.trim() === "" && !images.images && !attachments.attachments ? runOptions.askAgain : undefined;
      const parentFiles = runOptions.parentFiles ? { parentFiles: runOptions.parentFiles } : {};
      const runConfig = {
        ...config,
        ...parentFiles,
        ...(askAgain?.length ? { askAgain } : {}),
        ...(runOptions.steering ? { steering: runOptions.steering } : {}),
      };
      void runLoop(runConfig, state, controller.signal, (event) => channel.push(event), budget).finally(() => {
        outer?.removeEventListener("abort", forward);
        channel.close();
      });
      return channel;
    },
  };
}

/** Says once per run, as warnings, what a team file asked for that is not used. */
function notesMiddleware(notes: readonly string[]): Middleware {
  return {
    name: "teamFileNotes",
    systemPrompt(ctx) {
      for (const message of notes) ctx.emit({ type: "warning", code: "team_files", message });
      return undefined;
    },
  };
}

/** Runs to the end and returns the `done` event, handing every event to `onEvent`. */
export async function runToEnd(
  agent: Agent,
  input: string,
  options: RunOptions & { onEvent?: (event: AgentEvent) => void } = {},
): Promise<Extract<AgentEvent, { type: "done" }>> {
  let done: Extract<AgentEvent, { type: "done" }> | undefined;
  for await (const event of agent.run(input, options)) {
    options.onEvent?.(event);
    if (event.type === "done") done = event;
  }
  if (!done) throw new Error("The run ended without a done event.");
  return done;
}
