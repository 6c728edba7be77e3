// A competent model in a large file: grep for the function instead of reading 4,900 lines, read
// a window around it, edit. Its first edit re-indents the two lines it copies (two spaces where
// the file has four), a slip models often make; the error says the text exists with different
// indentation, and the model retries with the lines exactly as read_file showed them, without
// reading the file again. That is what edit precision measures.
import { after, call, expectText, resultOf, type ScenarioScript } from "../scripted";

const script: ScenarioScript = {
  wire: "anthropic",
  turns: [
    {
      text: "The file is large; finding the function first.",
      toolCalls: [call("grep", { pattern: "priceWithTax", path: "/src/catalog.js", output_mode: "content" })],
    },
    after((_, request) => {
      const found = resultOf(request, "grep").text;
      const line = Number(/:(\d+):\s*function priceWithTax/.exec(found)?.[1]);
      if (!line) throw new Error(`scripted model: no definition line in ${found}`);
      return { toolCalls: [call("read_file", { file_path: "/src/catalog.js", offset: line - 3, limit: 10 })] };
    }),
    after((_, request) => {
      expectText(
        "window",
        resultOf(request, "read_file").text,
        /function priceWithTax\(product\) \{\n\s*\d+\t {4}const TAX_RATE = 0\.2; \/\/ VAT/,
      );
      return {
        text: "The rate is a constant inside `priceWithTax`.",
        toolCalls: [
          call("edit_file", {
            file_path: "/src/catalog.js",
            old_string: "function priceWithTax(product) {\n  const TAX_RATE = 0.2; // VAT",
            new_string: "function priceWithTax(product) {\n  const TAX_RATE = 0.21; // VAT",
          }),
        ],
      };
    }),
    after((_, request) => {
      const error = resultOf(request, "edit_file").text;
      expectText("the failed edit", error, /old_string was not found[\s\S]*different whitespace or indentation/);
      // Retry with the line exactly as read_file showed it (earlier in the conversation).
      const window = JSON.stringify(request.body);
      const shown = /\\t( {4}const TAX_RATE = 0\.2; \/\/ VAT)\\n/.exec(window)?.[1];
      if (!shown) throw new Error("scripted model: the read window is not in the conversation");
      return {
        text: "The file indents with four spaces; retrying with the lines as they are.",
        toolCalls: [
          call("edit_file", {
            file_path: "/src/catalog.js",
            old_string: `function priceWithTax(product) {\n${shown}`,
            new_string: `function priceWithTax(product) {\n${shown.replace("0.2;", "0.21;")}`,
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("the retry", resultOf(request, "edit_file").text, /^Edited \/src\/catalog\.js/);
      return {
        text: "Changed `TAX_RATE` in `priceWithTax` (`src/catalog.js`, line 4917) from 0.2 to 0.21, so a price of 100 now gives 121 with VAT. Nothing else in the file changed; `shippingFor`'s 0.2 rate is a different thing and stays.",
      };
    }),
  ],
};
export default script;
