import { expect, load, unchanged } from "../checks.mjs";

unchanged("src/config.js", "src/worker.js");
const { createServer } = load("src/server.js");
expect(createServer().timeout === 30000, `the server's timeout is ${createServer().timeout}, not 30000`);
expect(createServer({ requestTimeoutMs: 5 }).timeout === 5, "a caller can no longer set the server's timeout");
expect(createServer().retries === 2, "the server's other settings changed");
expect(load("src/worker.js").createWorker().timeout === 10000, "the worker's timeout changed");
