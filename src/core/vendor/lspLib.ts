// JSON-RPC over a language server's stdio (vscode-jsonrpc: LSP's framing and cancellation), in a
// bundle of its own for the extension (see ./libraries.ts): only the CLI's and the Action's runs
// start a language server. The protocol's types come from vscode-languageserver-protocol, as
// types only: its runtime (every request's definition) would add 170 KB to the Action's bundle.
export {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  CancellationTokenSource,
} from "vscode-jsonrpc/node";
