// In-host tests: they run inside a real extension host, next to the installed Fathom.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";

const EXTENSION_ID = "fathom-dev.fathom";

function fathom(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this extension host`);
  return ext;
}

suite("Fathom extension", () => {
  test("is installed", () => {
    const ext = fathom();
    assert.equal(ext.packageJSON.name, "fathom");
    assert.equal(ext.packageJSON.publisher, "fathom-dev");
  });

  test("activates", async () => {
    const ext = fathom();
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  test("registers every command package.json contributes (menus and keys name only those)", async () => {
    await fathom().activate();
    const all = new Set(await vscode.commands.getCommands(true));
    const contributes = fathom().packageJSON.contributes as {
      commands: { command: string }[];
      menus: Record<string, { command?: string }[]>;
      keybindings: { command: string }[];
    };
    const expected = contributes.commands.map((c) => c.command);
    assert.ok(
      expected.includes("fathom.addSelectionToChat") &&
        expected.includes("fathom.editSelection") &&
        expected.includes("fathom.generateCommitMessage"),
    );
    const named = [
      ...Object.values(contributes.menus)
        .flat()
        .map((m) => m.command),
      ...contributes.keybindings.map((k) => k.command),
    ].filter((c): c is string => typeof c === "string" && c.startsWith("fathom.") && c !== "fathom.chat.focus");
    assert.deepEqual(
      named.filter((c) => !expected.includes(c)),
      [],
      "a menu or key names a command package.json does not contribute",
    );
    const missing = expected.filter((c) => !all.has(c));
    assert.deepEqual(missing, [], `commands not registered: ${missing.join(", ")}`);
  });
});

suite("Fathom settings", () => {
  test("every fathom.* default is the one package.json declares", () => {
    const properties = fathom().packageJSON.contributes.configuration.properties as Record<
      string,
      { default?: unknown }
    >;
    const keys = Object.keys(properties);
    assert.ok(keys.length > 0, "package.json contributes no fathom.* settings");
    const config = vscode.workspace.getConfiguration();
    for (const key of keys) {
      assert.ok(key.startsWith("fathom."), `setting ${key} is not under fathom.*`);
      assert.deepEqual(config.inspect(key)?.defaultValue, properties[key]?.default, `default of ${key}`);
    }
  });

  test("defaults follow the design (safe by default)", () => {
    const config = vscode.workspace.getConfiguration("fathom");
    const expected: Record<string, unknown> = {
      provider: "openai",
      model: "",
      baseUrl: "",
      maxSteps: 100,
      "autoApprove.read": true,
      "autoApprove.edit": false,
      "autoApprove.execute": false,
      "commands.allow": [],
      "commands.deny": [],
    };
    for (const [key, value] of Object.entries(expected)) {
      assert.deepEqual(config.inspect(key)?.defaultValue, value, `default of fathom.${key}`);
    }
  });

  test("no API key is a setting (keys live in SecretStorage)", () => {
    const properties = Object.keys(fathom().packageJSON.contributes.configuration.properties as object);
    // (`fathom.secretFiles` lists files to protect; it holds no secret.)
    assert.deepEqual(
      properties.filter((k) => /key|token|password|secret(?!Files$)/i.test(k)),
      [],
    );
  });
});

suite("Fathom view", () => {
  test("the activity-bar container and the chat view are contributed", () => {
    const contributes = fathom().packageJSON.contributes;
    const containers = contributes.viewsContainers.activitybar as { id: string; title: string }[];
    assert.ok(containers.some((c) => c.id === "fathom" && c.title === "Fathom"));
    const views = contributes.views.fathom as { id: string; type?: string }[];
    assert.ok(views.some((v) => v.id === "fathom.chat" && v.type === "webview"));
  });

  test("workbench.view.extension.fathom opens the view", async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    assert.ok(all.has("workbench.view.extension.fathom"), "no command opens the Fathom container");
    await vscode.commands.executeCommand("workbench.view.extension.fathom");
    // Focusing the webview view resolves it (Fathom's provider runs) or throws if it cannot.
    await vscode.commands.executeCommand("fathom.chat.focus");
    assert.equal(fathom().isActive, true, "opening the view should leave Fathom active");
  });
});
