// Issue 19 in a real extension host: the agent's commands run in the OS sandbox through the
// integrated terminal. A folder listed in fathom.sandbox.denyRead is unreadable, nothing is
// written outside the workspace, and the model is told it ran sandboxed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FathomApi } from '../../../src/host/extension';
import type { ToolItem } from '../../../src/protocol';
import { sandboxUnavailable } from '../../../src/core/executor/sandbox';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scriptedModelServer';
import { until } from './until';

suite('OS sandbox for commands', function () {
  this.timeout(60_000);
  let server: ScriptedModelServer;
  let fathom: FathomApi;
  const config = () => vscode.workspace.getConfiguration('fathom');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fathom-sbx-host-'));
  const secrets = path.join(scratch, 'secrets');
  const outside = path.join(scratch, 'outside.txt');

  suiteSetup(async function () {
    if (process.platform !== 'linux' || sandboxUnavailable()) this.skip();
    fs.mkdirSync(secrets);
    fs.writeFileSync(path.join(secrets, 'token'), 'CANARY-HOST-71c2\n');
    server = await startScriptedModelServer([]);
    const ext = vscode.extensions.getExtension<FathomApi>('fathom-dev.fathom');
    assert.ok(ext);
    fathom = await ext.activate();
    await config().update('provider', 'openai-compatible', vscode.ConfigurationTarget.Global);
    await config().update('baseUrl', server.baseUrlOpenAI, vscode.ConfigurationTarget.Global);
    await config().update('model', 'scripted-model', vscode.ConfigurationTarget.Global);
    await config().update('sandbox.denyRead', [secrets], vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    if (!fathom) return;
    for (const key of ['provider', 'baseUrl', 'model', 'sandbox.denyRead']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await fathom.restartSession();
    await server.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  test('an approved command runs in the terminal inside the sandbox', async () => {
    await fathom.session.newTask();
    const command = `cat ${secrets}/token; echo escaped > ${outside}; echo inside > sandboxed-ok.txt; echo finished`;
    server.push({ toolCalls: [{ id: 'x1', name: 'execute', arguments: { command } }] }, { text: 'Done.' });
    await fathom.session.send('run it');
    await until('the approval', () => fathom.session.state.status === 'awaiting_approval', 20_000);
    const card = fathom.session.state.items.find((i): i is ToolItem => i.kind === 'tool' && i.toolName === 'execute');
    assert.ok(card);
    fathom.session.approve(card.id);
    await fathom.session.whenIdle();
    const tool = (server.requests[1]!.body.messages as { role: string; content: string }[]).find((m) => m.role === 'tool');
    const result = tool?.content ?? '';
    assert.match(result, /finished/);
    assert.match(result, /Ran in the OS sandbox/);
    assert.doesNotMatch(result, /CANARY-HOST/);
    assert.ok(!fs.existsSync(outside), 'the command wrote outside the workspace');
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    assert.equal(fs.readFileSync(path.join(root, 'sandboxed-ok.txt'), 'utf8'), 'inside\n');
    fs.rmSync(path.join(root, 'sandboxed-ok.txt'));
    const done = fathom.session.state.items.find((i): i is ToolItem => i.kind === 'tool' && i.toolName === 'execute');
    assert.match(done?.exec?.via ?? '', /in the OS sandbox/);
  });
});
