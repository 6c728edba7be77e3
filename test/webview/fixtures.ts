// Chat states and items for the webview tests, typed by the protocol so they stay honest.
import {
  emptyUsageView,
  initialChatState,
  type ChatState,
  type Proposal,
  type ToolItem,
  type TranscriptItem,
} from "../../src/protocol";

const T0 = Date.UTC(2026, 10, 22, 9, 30);

export function baseState(overrides: Partial<ChatState> = {}): ChatState {
  return {
    ...initialChatState(),
    taskId: "task-1",
    title: "Fix the slugify bug",
    usage: { ...emptyUsageView(128_000) },
    model: { provider: "openai", model: "gpt-4.1" },
    ...overrides,
  };
}

export const user = (id: string, text: string): TranscriptItem => ({ id, kind: "user", text });
export const assistant = (id: string, text: string, streaming = false): TranscriptItem => ({
  id,
  kind: "assistant",
  text,
  streaming,
});

export function tool(id: string, fields: Partial<ToolItem> = {}): ToolItem {
  return {
    id,
    kind: "tool",
    toolName: "read_file",
    title: "Reading /src/slugify.js",
    args: JSON.stringify({ file_path: "/src/slugify.js" }, null, 2),
    status: "done",
    result: "     1\texport function slugify(text) {\n     2\t  return text.toLowerCase();\n     3\t}",
    startedAt: T0,
    endedAt: T0 + 420,
    ...fields,
  };
}

export const SLUGIFY_DIFF = [
  "--- a/src/slugify.js",
  "+++ b/src/slugify.js",
  "@@ -1,3 +1,6 @@",
  " export function slugify(text) {",
  "-  return text.toLowerCase();",
  "+  return text",
  "+    .toLowerCase()",
  "+    .trim()",
  '+    .replace(/[^a-z0-9]+/g, "-");',
  " }",
  "",
].join("\n");

export function proposal(fields: Partial<Proposal> = {}): Proposal {
  return {
    path: "/src/slugify.js",
    diff: SLUGIFY_DIFF,
    added: 4,
    removed: 1,
    isNewFile: false,
    outcome: "pending",
    ...fields,
  };
}

export function editTool(id: string, fields: Partial<ToolItem> = {}): ToolItem {
  return tool(id, {
    toolName: "edit_file",
    title: "Editing /src/slugify.js",
    args: JSON.stringify(
      { file_path: "/src/slugify.js", old_string: "return text.toLowerCase();", new_string: "…" },
      null,
      2,
    ),
    status: "awaiting_approval",
    result: undefined,
    endedAt: undefined,
    proposal: proposal(),
    ...fields,
  });
}

export function execTool(id: string, fields: Partial<ToolItem> = {}): ToolItem {
  return tool(id, {
    toolName: "execute",
    title: "Running `npm test`",
    args: JSON.stringify({ command: "npm test" }, null, 2),
    status: "running",
    result: undefined,
    endedAt: undefined,
    exec: { command: "npm test", output: "", via: "terminal (shell integration)" },
    ...fields,
  });
}

/** A task in full swing: everything the chat can show at once (for screenshots and axe). */
export function richState(overrides: Partial<ChatState> = {}): ChatState {
  return baseState({
    status: "awaiting_approval",
    todos: [
      { content: "Find where slugs are made", status: "completed" },
      { content: "Fix slugify for spaces and punctuation", status: "in_progress" },
      { content: "Run the tests", status: "pending" },
    ],
    usage: {
      inputTokens: 18_420,
      outputTokens: 2_310,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.0612,
      contextTokens: 21_000,
      contextWindow: 128_000,
    },
    items: [
      user("u1", "Slugs keep their spaces. Fix slugify and run the tests."),
      assistant(
        "a1",
        "I'll look at `slugify` first. It only lowercases:\n\n```js\nexport function slugify(text) {\n  return text.toLowerCase(); // keeps spaces\n}\n```\n\nI will **trim** and replace runs of other characters with `-`.",
      ),
      tool("t1"),
      execTool("t2", {
        status: "done",
        endedAt: T0 + 2_300,
        exec: {
          command: "npm test",
          output: "> test\n> node --test\n\n✖ slugify › replaces spaces (2.1ms)\n1 failing",
          exitCode: 1,
          via: "terminal (shell integration)",
        },
      }),
      tool("t3", {
        toolName: "task",
        title: "Subagent: find every caller of slugify",
        args: JSON.stringify({ description: "Find callers", subagent_type: "general-purpose" }, null, 2),
        result: "Two callers: /src/cli.js and /test/slugify.test.js",
        endedAt: T0 + 5_100,
        children: [
          tool("t3a", { toolName: "grep", title: "Searching for `slugify(`", args: "{}" }),
          assistant("t3b", "Found 2 callers."),
        ],
      }),
      editTool("t4"),
    ],
    // Two tasks at once, this one in its worktree.
    parallel: {
      tasks: [
        {
          key: "k1",
          taskId: "task-1",
          title: "Fix the slugify bug",
          status: "awaiting_approval",
          needsYou: true,
          shown: true,
          branch: "fathom/fix-the-slugify-bug",
        },
        { key: "k2", taskId: "task-2", title: "Update the README", status: "completed", needsYou: false, shown: false },
      ],
      worktrees: [
        {
          taskId: "task-1",
          title: "Fix the slugify bug",
          branch: "fathom/fix-the-slugify-bug",
          path: "/home/p/.local/share/fathom-worktrees/app-1a2b3c4d/fix-the-slugify-bug",
          state: "running",
          files: null,
          exists: true,
          inHistory: true,
        },
        {
          taskId: "task-0",
          title: "Rename the CLI flags",
          branch: "fathom/rename-the-cli-flags",
          path: "/home/p/.local/share/fathom-worktrees/app-1a2b3c4d/rename-the-cli-flags",
          state: "done",
          files: [{ path: "src/cli.js", status: "modified" }],
          exists: true,
          inHistory: false,
        },
      ],
      worktreeMode: { available: true, byDefault: false },
      maxParallel: 3,
      remote: {
        hasRemote: true,
        fetching: false,
        fetchedAt: T0,
        branches: [
          {
            ref: "refs/remotes/origin/fathom/12-fix-the-parser",
            remote: "origin",
            branch: "fathom/12-fix-the-parser",
            subject: "Fix the parser's empty-line case (#12)",
            files: [
              { path: "src/parser.js", status: "modified" },
              { path: "test/parser.test.js", status: "added" },
            ],
          },
        ],
        problems: [],
      },
    },
    ...overrides,
  });
}

/** `count` mixed items: messages, code, tool cards, exec cards and diffs. */
export function manyItems(count: number): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  for (let i = 0; items.length < count; i += 1) {
    items.push(user(`u${i}`, `Step ${i}: please continue with the next file.`));
    items.push(
      assistant(
        `a${i}`,
        `Looking at **file ${i}**. Here is the plan:\n\n- read it\n- change \`fn${i}\`\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\``,
      ),
    );
    items.push(tool(`r${i}`, { title: `Reading /src/file${i}.ts` }));
    items.push(
      execTool(`x${i}`, {
        status: "done",
        endedAt: T0 + 900,
        exec: { command: "npm test", output: `ok ${i}\n`, exitCode: 0 },
      }),
    );
    items.push(
      editTool(`e${i}`, {
        status: "done",
        endedAt: T0 + 1000,
        proposal: proposal({ path: `/src/file${i}.ts`, outcome: "approved" }),
      }),
    );
  }
  return items.slice(0, count);
}
