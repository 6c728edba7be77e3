// A competent model whose first idea is rejected: it changes the shared default, the person
// says no (the scenario's reject rule, with a reason), and it does what the reason asks: the
// server gets its own default, and config.js stays as it was.
import { after, call, expectText, resultOf, type ScenarioScript } from "../scripted";

const script: ScenarioScript = {
  wire: "anthropic",
  turns: [
    {
      toolCalls: [
        call("read_file", { file_path: "/src/server.js" }),
        call("read_file", { file_path: "/src/config.js" }),
      ],
    },
    after(() => ({
      text: "The server takes its timeout from the defaults in src/config.js (10 s). Raising it there:",
      toolCalls: [
        call("edit_file", {
          file_path: "/src/config.js",
          old_string: "  requestTimeoutMs: 10000,",
          new_string: "  requestTimeoutMs: 30000,",
        }),
      ],
    })),
    after((_, request) => {
      expectText(
        "the rejection",
        resultOf(request, "edit_file").text,
        /^The person rejected this edit_file call\. Their reason: Don't change config\.js/,
      );
      return {
        text: "Understood: the worker shares those defaults. I'll give the server its own timeout instead, still overridable by the caller.",
        toolCalls: [
          call("edit_file", {
            file_path: "/src/server.js",
            old_string: "  const settings = { ...defaults, ...options };",
            new_string:
              "  // The server waits longer than the shared default (the worker keeps 10 s).\n  const settings = { ...defaults, requestTimeoutMs: 30000, ...options };",
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("the server edit", resultOf(request, "edit_file").text, /^Edited \/src\/server\.js/);
      return {
        toolCalls: [
          call("execute", {
            command: `node -e "const { createServer } = require('./src/server'); const { createWorker } = require('./src/worker'); console.log(createServer().timeout, createServer({ requestTimeoutMs: 5 }).timeout, createWorker().timeout)"`,
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("the try-out", resultOf(request, "execute").text, /^30000 5 10000\n[\s\S]*\[Exit code: 0\]/);
      return {
        text: "The server's request timeout is now 30 s: `createServer` in `src/server.js` sets `requestTimeoutMs: 30000` over the shared defaults (a caller's option still wins). As you asked, `src/config.js` is unchanged, so the worker keeps its 10 s timeout.",
      };
    }),
  ],
};
export default script;
