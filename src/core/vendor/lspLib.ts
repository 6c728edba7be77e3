// The Language Server Protocol's JSON-RPC connection over a process's stdio, in a bundle of its
// own for the extension (see ./libraries.ts): only the CLI's and the Action's runs start a
// language server.
export {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  CancellationTokenSource,
} from "vscode-languageserver-protocol/node";
