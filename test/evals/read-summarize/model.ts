// A competent model answering from the code: find where retrying lives, read it (and the
// client that passes the option), answer with the facts, change nothing.
import { after, call, expectText, resultOf, type ScenarioScript } from "../scripted";

const script: ScenarioScript = {
  wire: "anthropic",
  turns: [
    { toolCalls: [call("grep", { pattern: "retry" })] },
    after((_, request) => {
      expectText("grep", resultOf(request, "grep").text, /\/src\/retry\.js[\s\S]*|\/src\/client\.js/);
      return {
        toolCalls: [
          call("read_file", { file_path: "/src/retry.js" }),
          call("read_file", { file_path: "/src/client.js" }),
        ],
      };
    }),
    after((results) => {
      const code = results.map((r) => r.text).join("\n");
      expectText("retry.js", code, /retries: 3, baseDelayMs: 200, maxDelayMs: 5000/);
      expectText("retry.js", code, /error\.status === 429 \|\| error\.status >= 500/);
      return {
        text:
          "Retrying is done by `withRetry` in `src/retry.js`; `createClient({ retry })` in `src/client.js` passes the option on.\n\n" +
          "- **Default:** 3 retries (so up to 4 tries in all), from `DEFAULTS = { retries: 3, baseDelayMs: 200, maxDelayMs: 5000 }`.\n" +
          "- **What is retried:** network failures (errors without a status), HTTP 429 and server errors (5xx). Other errors (4xx) fail at once.\n" +
          "- **The wait:** 200 ms before the first retry, doubling each time (200, 400, 800 ms, …: `base × 2^(n−1)`), capped at 5 s (`maxDelayMs`).\n" +
          "- **The option:** `retry: false` turns retrying off, a number sets the retries, an object sets `{ retries, baseDelayMs, maxDelayMs }`.\n\n" +
          "I didn't change anything.",
      };
    }),
  ],
};
export default script;
