// Hooks and memory in the real chat (issue 31): a PreToolUse hook from the person's own
// hooks.json refuses a write, and its run is a line in the transcript; memories planted for the
// workspace reach the model's first request as the memory index, are listed under "Memories" in
// the Fathom view, and Delete (confirmed in VS Code's dialog) removes one from disk and the list.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openChat, send, until, withScriptedModel as withModel } from '../harness/chat.js';
import type { E2ETest } from '../harness/e2e.js';
import { memoryFolders } from '../../../src/core/memory/memoryStore.js';

const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'fathom-e2e-hooks-xdg-'));

export const tests: E2ETest[] = [
  {
    name: 'Hooks and memory: a hook\'s line in the transcript; the Memories list with delete',
    env: { XDG_CONFIG_HOME: configHome },
    async run(ctx) {
      const hooksFile = path.join(configHome, 'fathom', 'hooks.json');
      fs.mkdirSync(path.dirname(hooksFile), { recursive: true });
      fs.writeFileSync(hooksFile, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'echo "Writes are frozen today" >&2; exit 2' }] }] } }));
      // The harness gives code-server (and so Fathom) an XDG_DATA_HOME of the session's own.
      const folders = memoryFolders(ctx.session.workspaceDir, { XDG_DATA_HOME: path.join(ctx.session.root, 'xdg-data') });
      fs.mkdirSync(folders.project, { recursive: true });
      fs.mkdirSync(folders.user, { recursive: true });
      fs.writeFileSync(path.join(folders.project, 'style.md'), 'Use tabs for indentation\n');
      fs.writeFileSync(path.join(folders.user, 'tone.md'), 'Answer in short sentences\n');

      await withModel(ctx, async (server) => {
        const chat = await openChat(ctx.page);
        server.push({ toolCalls: [{ id: 'w1', name: 'write_file', arguments: { file_path: '/frozen.txt', content: 'x\n' } }] }, { text: 'The hook refused the write.' });
        await send(chat, 'Write frozen.txt');
        await chat.getByText('The hook refused the write.').waitFor({ state: 'visible', timeout: 60_000 });
        await chat.getByText(/Hook PreToolUse \(write_file\): echo "Writes are frozen today".* · \d+ ms · block — Writes are frozen today/).waitFor({ state: 'visible', timeout: 10_000 });
        assert.ok(!fs.existsSync(path.join(ctx.session.workspaceDir, 'frozen.txt')), 'the hook kept the write from happening');
        const system = JSON.stringify(server.requests[0]!.body.messages[0]);
        assert.match(system, /<memory-index>\\n- \/memories\/style\.md: Use tabs for indentation\\n- \/memories\/user\/tone\.md: Answer in short sentences\\n<\/memory-index>/);
        const refused = (server.requests[1]!.body.messages as { role: string; content: string }[]).find((m) => m.role === 'tool');
        assert.match(refused?.content ?? '', /A PreToolUse hook refused this call[\s\S]*Writes are frozen today/);
        await ctx.screenshot('e2e-hooks-line');

        await chat.getByText('Memories', { exact: true }).click();
        const style = chat.getByRole('listitem', { name: '/memories/style.md: Use tabs for indentation' });
        await style.waitFor({ state: 'visible', timeout: 15_000 });
        await chat.getByRole('listitem', { name: '/memories/user/tone.md: Answer in short sentences' }).waitFor({ state: 'visible', timeout: 5_000 });
        await ctx.screenshot('e2e-memories-list');
        await style.getByRole('button', { name: 'Delete /memories/style.md' }).click();
        const dialog = ctx.page.getByRole('dialog').filter({ hasText: 'Delete the memory /memories/style.md?' });
        await dialog.waitFor({ state: 'visible', timeout: 15_000 });
        await dialog.getByRole('button', { name: 'Delete' }).click();
        await chat.getByText('Memories (1)').waitFor({ state: 'visible', timeout: 15_000 });
        await until('the memory file to be gone', () => !fs.existsSync(path.join(folders.project, 'style.md')), 10_000);
        assert.ok(fs.existsSync(path.join(folders.user, 'tone.md')), 'the other memory stays');
      });
    },
  },
];
