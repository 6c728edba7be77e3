// A competent model with output too long to read: run the report, see that the middle was left
// out, narrow it with grep instead of paging through 20,000 lines, answer.
import { after, call, expectText, resultOf, type ScenarioScript } from "../scripted";

const script: ScenarioScript = {
  wire: "openai",
  turns: [
    { toolCalls: [call("execute", { command: "npm run report" })] },
    after((_, request) => {
      const out = resultOf(request, "execute").text;
      expectText(
        "the report",
        out,
        /19999 built, 1 failed[\s\S]*Output was long: the middle is omitted[\s\S]*\[Exit code: 1\]/,
      );
      if (out.includes("FAILED"))
        throw new Error(
          "scripted model: the failure is visible already; this scenario expects it in the omitted middle",
        );
      return {
        text: "One module failed, but its line is in the part of the output that was left out. Narrowing to the failure:",
        toolCalls: [call("execute", { command: "npm run report 2>&1 | grep -n 'FAILED'" })],
      };
    }),
    after((_, request) => {
      const out = resultOf(request, "execute").text;
      const line = /(module-\d+) \.\.\. FAILED: (.*)/.exec(out);
      if (!line) throw new Error(`scripted model: grep found no FAILED line: ${out}`);
      return {
        text: `The failing module is **${line[1]}** (19,999 of 20,000 built): ${(line[2] ?? "").replace(/'([^']+)'/, "`$1`")}. Its \`src/index.js\` imports \`./legacy/parser\`, which does not resolve: the file is missing or was moved. I didn't change anything.`,
      };
    }),
  ],
};
export default script;
