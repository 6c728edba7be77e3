// `npm start`: a real VS Code in the browser with Fathom installed, for people.
// Packages Fathom, starts code-server on http://127.0.0.1:8080 (FATHOM_PORT or --port N) with
// a copy of test/fixtures/sample-workspace, prints the URL and stays up until Ctrl+C.
// State (settings, secrets such as the API key, the workspace copy) is kept in
// <cache>/start between runs; --fresh starts over. FATHOM_SKIP_PACKAGE=1 reuses the newest
// fathom-*.vsix; FATHOM_VSIX=<file> installs that one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isStopping, runCleanups } from './harness/cleanup.js';
import { isPortFree, startCodeServer } from './harness/codeServer.js';
import { cacheDir, copySampleWorkspace, ensureCodeServer, packageFathom, repoRoot } from './harness/paths.js';

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

async function main(): Promise<void> {
  const port = Number(option('--port') ?? process.env.FATHOM_PORT ?? 8080);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`bad port: ${String(port)}`);
  if (!(await isPortFree(port))) {
    throw new Error(`127.0.0.1:${port} is in use. Stop what runs there or pick another port: FATHOM_PORT=8081 npm start (or npm start -- --port 8081)`);
  }

  const install = await ensureCodeServer();
  const vsix = await packageFathom();
  console.log(`[start] installing ${path.relative(repoRoot, vsix) || vsix}`);

  const stateDir = path.join(cacheDir, 'start');
  if (process.argv.includes('--fresh')) fs.rmSync(stateDir, { recursive: true, force: true });
  const workspaceDir = path.join(stateDir, 'sample-workspace');
  if (!fs.existsSync(workspaceDir)) copySampleWorkspace(workspaceDir);

  const server = await startCodeServer({
    install,
    port,
    userDataDir: path.join(stateDir, 'user-data'),
    extensionsDir: path.join(stateDir, 'extensions'),
    workspaceDir,
    extensions: [vsix],
  });
  console.log('');
  console.log(`  Fathom in VS Code: ${server.folderUrl()}`);
  console.log(`  workspace:         ${workspaceDir} (a copy; \`npm start -- --fresh\` resets it)`);
  console.log(`  code-server log:   ${server.logFile}`);
  console.log('  Ctrl+C stops it.');
  console.log('');
  const code = await server.exited;
  if (isStopping()) return; // Ctrl+C: the signal handler stops the rest and exits
  throw new Error(`code-server exited by itself (${String(code)}); see ${server.logFile}`);
}

main().catch(async (err: unknown) => {
  console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
  await runCleanups();
  process.exit(1);
});
