// The MCP client and the JSON Schema checker of its tools' arguments, in a bundle of their own
// for the extension (see ./libraries.ts).
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export * as mcpTypes from "@modelcontextprotocol/sdk/types.js";
export { Ajv } from "ajv";
