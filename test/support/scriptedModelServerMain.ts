// The scripted model server as a process of its own (for the demo, the bench and manual runs):
//   node --import tsx test/support/scriptedModelServerMain.ts --script turns.json --port 0
// Kept apart from the library so bundles of the library (the in-host suite is CommonJS) carry
// no entry-point check.
import { readFileSync } from "node:fs";
import { startScriptedModelServer, type ScriptedModelServer, type StaticTurn } from "./scriptedModelServer";

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(args: string[]): Promise<void> {
  // Handlers first: a SIGTERM that arrives while starting must not kill us uncleanly.
  const state: { server?: ScriptedModelServer } = {};
  const stop = () => {
    if (!state.server) process.exit(0);
    void state.server.close().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // With --keep-alive, only a signal stops it (for a parent that cannot keep stdin open).
  if (!args.includes("--keep-alive")) {
    process.stdin.on("end", stop);
    process.stdin.on("close", stop);
    process.stdin.resume();
  }
  const scriptFile = argValue(args, "--script");
  const turns: StaticTurn[] = scriptFile ? (JSON.parse(readFileSync(scriptFile, "utf8")) as StaticTurn[]) : [];
  const server = await startScriptedModelServer(turns, {
    port: Number(argValue(args, "--port") ?? 0),
    host: argValue(args, "--host") ?? "127.0.0.1",
    ref: true,
  });
  state.server = server;
  process.stdout.write(`${server.url}\n`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`scripted model server: ${String(err)}\n`);
  process.exit(1);
});
