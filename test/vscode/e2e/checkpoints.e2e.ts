// Checkpoints through the real chat webview (issue 13): a task creates a file and edits two;
// the person then changes one of those edited files in the editor and saves it; Restore on the
// message shows the conflict, and restoring files puts the other edit back, deletes the created
// file and leaves the person's file as they left it. The transcript says what was and was not restored.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openChat, send, withScriptedModel as withModel } from '../harness/chat.js';
import type { E2ETest } from '../harness/e2e.js';

export const tests: E2ETest[] = [
  {
    name: 'Checkpoints: Restore on a message takes back the task\'s files, and leaves a file the person changed since',
    settings: { 'fathom.autoApprove.edit': true },
    async run(ctx) {
      const ws = ctx.session.workspaceDir;
      const slugify = fs.readFileSync(path.join(ws, 'src/slugify.js'), 'utf8');
      await withModel(ctx, async (server) => {
        server.push(
          { toolCalls: [{ id: 'r1', name: 'read_file', arguments: { file_path: '/src/slugify.js' } }, { id: 'r2', name: 'read_file', arguments: { file_path: '/README.md' } }] },
          { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { file_path: '/src/toSlug.js', content: "export { slugify as toSlug } from './slugify.js';\n" } }] },
          { toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { file_path: '/src/slugify.js', old_string: ".replace(/^-/, '')", new_string: ".replace(/^-|-$/g, '')" } }] },
          { toolCalls: [{ id: 'e2', name: 'edit_file', arguments: { file_path: '/README.md', old_string: '# Sample workspace', new_string: '# Sample workspace (slugs fixed)' } }] },
          { text: 'Fixed the trailing dash and added toSlug.' },
        );
        const chat = await openChat(ctx.page);
        await send(chat, 'Fix the trailing dash in slugify');
        await chat.getByText('Fixed the trailing dash and added toSlug.').waitFor({ state: 'visible', timeout: 60_000 });
        assert.match(fs.readFileSync(path.join(ws, 'src/slugify.js'), 'utf8'), /\^-\|-\$/);
        assert.ok(fs.existsSync(path.join(ws, 'src/toSlug.js')));
        // The person changes README.md after Fathom did (as an editor save would).
        const personsReadme = `${fs.readFileSync(path.join(ws, 'README.md'), 'utf8')}\nA line the person added.\n`;
        assert.match(personsReadme, /slugs fixed/);
        fs.writeFileSync(path.join(ws, 'README.md'), personsReadme);

        // Back to the top of the transcript, where the message is (the list renders what is in view).
        await chat.locator('.transcript').evaluate((el) => (el.scrollTop = 0));
        await chat.getByRole('article', { name: 'You' }).hover({ timeout: 10_000 });
        await chat.getByRole('button', { name: 'Restore to before this message' }).click();
        const panel = chat.getByRole('region', { name: /^Restore to before your message/ });
        await panel.waitFor({ state: 'visible', timeout: 30_000 });
        const files = panel.getByRole('list', { name: 'Files' });
        await files.getByRole('listitem').filter({ hasText: '/src/slugify.js' }).getByText('put back its earlier text').waitFor({ timeout: 10_000 });
        await files.getByRole('listitem').filter({ hasText: '/src/toSlug.js' }).getByText('deleted (Fathom created it)').waitFor();
        await files.getByRole('listitem').filter({ hasText: '/README.md' }).getByText(/changed after Fathom's last change: left as it is/).waitFor();
        await ctx.screenshot('e2e-checkpoints-preview');
        await panel.getByRole('button', { name: 'Restore files only' }).click();
        await panel.waitFor({ state: 'detached', timeout: 30_000 });
        // The notice is at the end of the transcript.
        await chat.locator('.transcript').evaluate((el) => (el.scrollTop = el.scrollHeight));

        await chat.getByText(/Files restored to before your message .*put back \/src\/slugify\.js; deleted \/src\/toSlug\.js/).waitFor({ state: 'visible', timeout: 30_000 });
        await chat.getByText(/Left as they are \(changed after Fathom's last change\): \/README\.md/).waitFor({ state: 'visible', timeout: 5_000 });
        assert.equal(fs.readFileSync(path.join(ws, 'src/slugify.js'), 'utf8'), slugify, 'the edit was taken back');
        assert.ok(!fs.existsSync(path.join(ws, 'src/toSlug.js')), 'the created file was deleted');
        assert.equal(fs.readFileSync(path.join(ws, 'README.md'), 'utf8'), personsReadme, "the person's file is as they left it");
        // Nothing of Fathom's in the workspace, no git run.
        assert.ok(!fs.readdirSync(ws).some((f) => /fathom|checkpoint/i.test(f)));
        await ctx.screenshot('e2e-checkpoints-restored');
      });
    },
  },
];
