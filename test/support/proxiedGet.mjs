// Fetches a URL through the HTTP proxy in $HTTP_PROXY, as curl or npm would: the way a command
// inside the OS sandbox reaches the network. Prints "status <code> <body>" or "error <message>".
import http from "node:http";

const proxy = new URL(process.env.HTTP_PROXY ?? "http://127.0.0.1:9");
const auth = Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString(
  "base64",
);
const request = http.request(
  {
    host: proxy.hostname,
    port: proxy.port,
    path: process.argv[2],
    headers: { "Proxy-Authorization": `Basic ${auth}` },
  },
  (response) => {
    let body = "";
    response.on("data", (chunk) => (body += chunk));
    response.on("end", () => console.log(`status ${response.statusCode} ${body.trim()}`));
  },
);
request.on("error", (error) => console.log(`error ${error.message}`));
request.end();
