/** `fathom --help`. */
export const RUN_USAGE = `Usage: fathom run [options] "<prompt>" | fathom run [options] "/<command> [arguments]"
       fathom tasks [--cwd DIR] [--json] | fathom tasks --delete TASK_ID [--cwd DIR]
       fathom restore TASK_ID [--to N] [--files|--conversation|--both] [--cwd DIR] [--yes]
       fathom eval DIR [--trials K] [--replay] [--provider P] [--model M] [--json] [--baseline FILE]
                  [--shard I/N] | fathom eval merge FILE...   (fathom eval --help)
       fathom models [--provider NAME] [--base-url URL] [--json]
       fathom worktrees [--cwd DIR] [--json] | fathom apply TASK_ID | fathom discard TASK_ID
       fathom memories [--json] | fathom memories rm PATH | fathom memories clear [--yes]
       fathom commit-message [--cwd DIR] [--all]   (a message for the staged changes; --help)
       fathom review [--staged | --base REF | --pr N] [--json]   (findings in a change; --help)
       fathom acp [options]   (an Agent Client Protocol agent on stdio, for Zed, JetBrains, Neovim; --help)

Runs the Fathom agent on a workspace from the terminal. Each run is saved as a task, with a
checkpoint at its start and before each write (kept outside the workspace, no git): "fathom
tasks" lists them and "fathom restore" takes files or conversation back to one.

Options:
  --cwd DIR             workspace root (default: the current directory)
  --provider NAME       openai | anthropic | openai-compatible (default: openai,
                        or anthropic when only ANTHROPIC_API_KEY is set)
  --model ID            model id (default: the provider's default)
  --base-url URL        API base URL (required for most openai-compatible servers)
  --tools MODE          native (the API's tool calling; calls written as text still run),
                        text (tools in the prompt, calls read from text), none, or
                        constrained (one schema-held JSON call or answer per turn). Default:
                        constrained for small models (4B parameters or fewer, by name or as
                        a local server says), native for every other
  --profile P           small (short prompt, core tools only) or full. Default: small with
                        constrained tool calls or a context of 16K tokens or less
  --temperature T       sampling temperature sent with each request (constrained: 0)
  --seed N              sampling seed sent with each request
  --context-window N    the model's context window in tokens, if Fathom does not know it
  --max-steps N         most model calls for this task (default 100)
  --spend-cap USD       stop when the task has cost this much
  --file PATH[:START-END]
                        attach a file (or lines START to END of it, 1-based) to the prompt,
                        read under the same rules as the agent's reads (repeatable, at most 20;
                        a secret file such as .env is not attached)
  --agent NAME          run as the custom agent NAME (.github/agents/NAME.agent.md,
                        .claude/agents/NAME.md or your own): its instructions and model, and
                        only the tools its list names (a list never adds a tool)
  --task ID             continue a saved task (its conversation and checkpoints; in its
                        worktree when it has one)
  --worktree [NAME]     run in a git worktree of its own, on a new branch fathom/NAME (default:
                        from the prompt) from HEAD, outside the repository; your working tree
                        is untouched until "fathom apply TASK_ID" (see fathom worktrees --help)
  --plan                Plan mode: the agent only reads (and may ask you questions), then
                        prints a plan (steps, files, risks) and exits 0; --json adds a "plan"
                        event. The plan is saved with the task
  --act                 with --task ID: start that task's plan (its steps become the todos;
                        a prompt, if given, is added to it)
  --approvals LEVEL     ask (default: every write and command asked), editsAuto (writes land
                        at once, checkpointed; commands asked) or autopilot (writes and
                        sandboxed commands run unasked; 50 model calls and $2 unless
                        --max-steps / --spend-cap; where the sandbox cannot run, editsAuto).
                        Deny patterns, secret files, memory and leaving the sandbox still ask
  --yes                 approve writes and commands without asking (and ask no questions: the
                        agent decides and says what it assumed)
  --no-sandbox          run commands with your full rights, not in the OS sandbox
  --allow-domain D      let sandboxed commands reach domain D (repeatable)
  --mcp-config FILE     use the MCP servers of FILE (repeatable), besides your user-level
                        ~/.config/fathom/mcp.json
  --allow-workspace-mcp also start the servers of the workspace's .vscode/mcp.json and .mcp.json
                        (written by whoever wrote the repository: at a terminal you are
                        asked, showing what they run; otherwise off unless you pass this)
  --allow-workspace-hooks
                        also run the hooks of the workspace's .claude/settings*.json,
                        .fathom/hooks.json and .github/hooks/*.json (a stranger's programs: at a
                        terminal you are asked, showing them; they run in the OS sandbox and may
                        block or add context, never approve a call). Your own
                        ~/.claude/settings.json and ~/.config/fathom/hooks.json always run
  --no-code-intel       do not offer the code intelligence tools (find_references,
                        rename_symbol, get_problems, …). By default a language server the
                        workspace calls for (typescript-language-server, pyright-langserver or
                        pylsp, from node_modules/.bin or PATH) starts at their first use, in the
                        OS sandbox, and stops with the task
  --allow-memory-writes let the agent write /memories/ without asking (memory reaches every
                        later task; without this each write is asked, even with --yes)
  --record FILE.jsonl   write every model request and streamed response to FILE (no keys)
  --replay FILE.jsonl   answer from a recording instead of a model (no network, no key): the
                        provider, model and (unless given) prompt are the recording's; the run
                        stops where it leaves the recording, showing the difference
  --json                print every event as one JSON line
  -h, --help            show this help

A prompt that starts with /NAME runs the prompt file NAME (.github/prompts/NAME.prompt.md,
.claude/commands/NAME.md, .clinerules/workflows/NAME.md, ~/.config/fathom/prompts/NAME.md) with
the rest of the line as its arguments; \${input:x} is asked at the terminal or given as x=value.
Rules (AGENTS.md in any folder, CLAUDE.md, .github/copilot-instructions.md and instructions,
.cursor/rules, .clinerules) and skills are read as VS Code reads them; --json lists the rules
used in "rules_loaded" events and in the done event's "rules".

Keys come from OPENAI_API_KEY or ANTHROPIC_API_KEY. Without --yes, Fathom asks before each
write and command; with no terminal to ask on, those calls are rejected. At a terminal, a line
you type while the agent works is sent to it (read at its next step), and the agent's questions
(ask_user) are asked there; with no terminal or with --yes it is told no one can answer. Commands run in the OS
sandbox (bubblewrap and socat on Linux): writes only in the workspace and a private temp
folder, no reading ~/.ssh and other secrets, no network unless --allow-domain. A command the
agent asks to run outside it is always asked, even with --yes; so is every command where the
sandbox cannot run (it says why once, and how to install what is missing).
Exit codes: 0 done, 1 failed, 2 usage error, 130 cancelled.`;
