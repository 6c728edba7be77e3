// The Fathom view in a real VS Code (code-server in headless Chromium): the activity-bar
// icon is there, the view opens, a message goes to the extension host and the answer renders.
import * as assert from 'node:assert/strict';
import { activityBarItem, findWebviewFrame } from '../harness/browser.js';
import type { E2ETest } from '../harness/e2e.js';

export const tests: E2ETest[] = [
  {
    name: 'Fathom view: activity-bar icon, view opens, a message round-trips',
    async run({ page, screenshot }) {
      const icon = activityBarItem(page, 'Fathom');
      await icon.waitFor({ state: 'visible', timeout: 60_000 });

      await icon.click();
      // The side bar now shows Fathom's container with its "Chat" view.
      await page.locator('.sidebar .composite.title').getByText(/Fathom/i).first().waitFor({ state: 'visible' });

      // The chat is a webview: an iframe inside an iframe. Find the frame with the message box.
      const chat = await findWebviewFrame(page, async (f) => (await f.getByRole('textbox', { name: 'Message' }).count()) > 0, 60_000);
      const message = chat.getByRole('textbox', { name: 'Message' });
      await message.fill('ping');
      await chat.getByRole('button', { name: 'Send' }).click();

      // The host's answer to "ping" quotes it ("pong: ping" / "Echo: ping"), so once it has
      // rendered the view shows the word at least twice: the sent message and the answer.
      const body = chat.locator('body');
      const deadline = Date.now() + 30_000;
      let text = '';
      while (Date.now() < deadline) {
        text = await body.innerText();
        if ((text.match(/\bping\b/gi) ?? []).length >= 2) break;
        await page.waitForTimeout(200);
      }
      assert.ok((text.match(/\bping\b/gi) ?? []).length >= 2, `no answer quoting "ping" rendered; the view shows:\n${text}`);

      await screenshot('e2e-roundtrip');
    },
  },
];
