import { randomBytes } from "node:crypto";
import * as vscode from "vscode";

/**
 * The chat view's HTML: one bundled script and stylesheet from dist/, a strict CSP and a fresh
 * nonce per load, so nothing but our own bundle runs and nothing is fetched from the network.
 */
export function renderWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString("base64");
  const asset = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "dist", file)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset("webview.css")}" nonce="${nonce}">
<title>Fathom</title>
</head>
<body>
<div id="root"></div>
<script nonce="${nonce}" src="${asset("webview.js")}"></script>
</body>
</html>`;
}
