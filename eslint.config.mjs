// Lint, including the layer rules of ARCHITECTURE.md: an import that crosses a layer the wrong
// way is an error, not a review comment.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const noVscode = {
  name: "vscode",
  message: "This layer must not depend on VS Code: go through an interface the host implements.",
};
const hostPatterns = {
  group: ["**/host", "**/host/**"],
  message: "The host depends on this layer, never the other way round.",
};
const actionPatterns = {
  group: ["**/action", "**/action/**"],
  message: "The GitHub Action is an entry point: nothing imports it.",
};
const corePatterns = [
  hostPatterns,
  actionPatterns,
  { group: ["**/cli", "**/cli/**"], message: "The CLI depends on the core, not the reverse." },
];

export default tseslint.config(
  // test/evals/*/workspace: the eval scenarios' projects, written in their own (CommonJS) style for the agent to work on.
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "test-output/**",
      ".vscode-test/**",
      "**/*.vsix",
      "test/vscode/runner-extension/dist/**",
      "test/evals/*/workspace/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  {
    // Size, as a rule rather than a habit. Counted in code lines after Prettier (blank lines and
    // comments do not count, so a why-comment never has to go to make room). 450 lines of code is
    // a file one can read in a sitting and sits above every file we have; a 200-line function is
    // where a component or a command handler starts doing several jobs (Composer, the CLI's run and
    // activate were 390, 270 and 226 and were split by what their parts do). A file or function
    // near a limit is a question for review, never a reason to cut it at a line count.
    files: ["src/**/*.ts", "webview-ui/src/**/*.{ts,tsx}"],
    rules: {
      "max-lines": ["error", { max: 450, skipBlankLines: true, skipComments: true }],
      "max-lines-per-function": ["error", { max: 200, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [noVscode], patterns: corePatterns }],
    },
  },
  {
    // Inside the core, agent/ composes the rest (middleware, tools, model), so only the files that
    // build an agent import it; the run's types are in run/. (Rules are replaced, not merged, so
    // the core's own patterns are repeated.)
    files: ["src/core/**/*.ts"],
    ignores: [
      "src/core/agent/**",
      "src/core/index.ts",
      "src/core/headless/**",
      "src/core/inlineEdit/inlineEditAgent.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [noVscode],
          patterns: [
            ...corePatterns,
            {
              group: ["**/agent", "**/agent/**"],
              message:
                "Only the composition files (agent/, index.ts, headless/, inlineEditAgent.ts) import agent/: take the run's types from run/.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/protocol/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [noVscode],
          patterns: [
            {
              group: ["**/core/**", "**/host/**", "**/cli/**", "**/action/**", "node:*"],
              message: "The protocol is shared with the webview: zod only.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/cli/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [noVscode], patterns: [hostPatterns, actionPatterns] }] },
  },
  {
    // The GitHub Action: a third entry point beside the CLI and the host, on the core alone.
    files: ["src/action/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [noVscode],
          patterns: [
            hostPatterns,
            {
              group: ["**/cli", "**/cli/**"],
              message: "The action uses the core as the CLI does, not the CLI itself.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/host/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [actionPatterns] }] },
  },
  {
    // Inside the host: review, models and context are used by the task lifecycle (host/tasks),
    // never the reverse, so a message's walk goes one way.
    files: ["src/host/review/**/*.ts", "src/host/models/**/*.ts", "src/host/context/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            actionPatterns,
            {
              group: ["**/tasks", "**/tasks/**"],
              message:
                "host/tasks (the task lifecycle) uses this folder, not the other way round: take what you need as a parameter or a narrow interface.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["webview-ui/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [noVscode],
          patterns: [
            {
              group: [
                "**/src/core",
                "**/src/core/**",
                "**/src/host",
                "**/src/host/**",
                "**/src/cli",
                "**/src/cli/**",
                "**/src/action",
                "**/src/action/**",
              ],
              message: "The webview may import only src/protocol from src/.",
            },
            { group: ["node:*"], message: "The webview runs in a browser." },
          ],
        },
      ],
    },
  },
);
