import * as vscode from "vscode";
import type { Attachment, PersonTerminals } from "../../core";
import { MAX_ATTACHMENT_CHARS, cleanTerminalText, terminalAttachment, type TerminalCapture } from "../../core";

/** Raw output kept per command while recording (escape sequences included, so more than the chip's cap). */
const KEEP_RAW_CHARS = MAX_ATTACHMENT_CHARS * 3;

interface Recorded {
  command: string;
  exitCode: number | undefined;
  output: string;
  cut: boolean;
  ended: boolean;
}

/**
 * Each terminal's last command, as shell integration reports it while Fathom runs: its
 * command line, output and exit code. A command's output can only be read from its start
 * (`TerminalShellExecution.read`), so recording begins when the command does; commands that
 * ran before Fathom started are found through VS Code's own "copy last command output".
 */
export class TerminalHistory implements vscode.Disposable, PersonTerminals {
  private readonly last = new WeakMap<vscode.Terminal, Recorded>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    // Absent in a VS Code older than shell integration's API: then only the fallbacks work.
    const start = vscode.window.onDidStartTerminalShellExecution;
    const end = vscode.window.onDidEndTerminalShellExecution;
    if (!start || !end) return;
    this.subscriptions.push(
      start((e) => {
        const record: Recorded = {
          command: e.execution.commandLine.value,
          exitCode: undefined,
          output: "",
          cut: false,
          ended: false,
        };
        this.last.set(e.terminal, record);
        void (async () => {
          for await (const chunk of e.execution.read()) {
            record.output += chunk;
            if (record.output.length > KEEP_RAW_CHARS * 2) {
              record.output = record.output.slice(-KEEP_RAW_CHARS);
              record.cut = true;
            }
          }
        })().catch(() => undefined);
      }),
      end((e) => {
        const record = this.last.get(e.terminal);
        if (!record) return;
        record.exitCode = e.exitCode;
        record.ended = true;
        // The command line is more accurate once the command ended.
        if (e.execution.commandLine.value) record.command = e.execution.commandLine.value;
      }),
    );
  }

  /**
   * The chip for a terminal: its selected text when the person selected some, else its last
   * command (recorded, or copied through VS Code), else why there is nothing to attach.
   */
  async attachmentFor(terminal: vscode.Terminal): Promise<{ attachment: Attachment } | { refused: string }> {
    const selection = (terminal as { selection?: string }).selection;
    if (selection?.trim())
      return {
        attachment: terminalAttachment({
          command: "",
          output: selection,
          selection: true,
          terminalName: terminal.name,
        }),
      };
    const recorded = await this.recorded(terminal, true);
    if (recorded) return { attachment: terminalAttachment(recorded) };
    if (!terminal.shellIntegration) {
      return {
        refused: `The terminal "${terminal.name}" has no shell integration, so Fathom cannot tell where its last command's output starts. Select the output in the terminal and run "Add Terminal Output to Chat" again (or enable terminal.integrated.shellIntegration.enabled and open a new terminal).`,
      };
    }
    const copied = await copiedLastOutput(terminal);
    if (copied === undefined)
      return {
        refused: `The terminal "${terminal.name}" has no finished command with output yet. Run the command, then add its output.`,
      };
    return {
      attachment: terminalAttachment({ command: copied.command, output: copied.output, terminalName: terminal.name }),
    };
  }

  /**
   * The command Fathom saw last in `terminal`, with its output so far. A command that prints at
   * once (`echo …`) can end before `read()` is first called, so its stream is empty; the
   * terminal's buffer still has it, copied through VS Code when `mayCopy` (it shows the terminal).
   */
  private async recorded(terminal: vscode.Terminal, mayCopy: boolean): Promise<TerminalCapture | undefined> {
    const record = this.last.get(terminal);
    if (!record) return undefined;
    const missed = record.ended && cleanTerminalText(record.output).trim() === "" && terminal.shellIntegration;
    const copied = missed && mayCopy ? await copiedLastOutput(terminal) : undefined;
    return {
      command: record.command,
      exitCode: record.exitCode,
      output: copied?.output ?? record.output,
      cut: record.cut,
      running: !record.ended,
      terminalName: terminal.name,
      ...(missed && !copied
        ? {
            unreadable: mayCopy
              ? "its output could not be copied from the terminal (in a browser, allow this page to read the clipboard); select the output and add the selection"
              : "its output was printed before Fathom could read it; the person can select it in the terminal and add it to the chat",
          }
        : {}),
    };
  }

  /** The person's terminals' last commands (the `terminal_output` tool); Fathom's own task terminals are left out. */
  async lastCommands(): Promise<TerminalCapture[]> {
    const out: TerminalCapture[] = [];
    for (const terminal of personTerminals()) {
      // Copying goes through the active terminal; another one would be brought to the front.
      const capture = await this.recorded(terminal, terminal === vscode.window.activeTerminal);
      if (capture) out.push(capture);
    }
    return out;
  }

  names(): string[] {
    return personTerminals().map((t) => t.name);
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}

/**
 * The last command and its output through VS Code's "Copy Last Command and Output" (for a
 * command that ran before Fathom started). It goes through the clipboard: the person's text
 * there is put back right after.
 */
async function copiedLastOutput(terminal: vscode.Terminal): Promise<{ command: string; output: string } | undefined> {
  const clipboard = vscode.env.clipboard;
  // Unreadable (a browser that did not allow it): the person's clipboard could not be put back, so it is left alone.
  const before = await clipboard.readText().then(
    (text) => text,
    () => undefined,
  );
  if (before === undefined) return undefined;
  const marker = `fathom-no-output-${Date.now()}`;
  try {
    terminal.show(true);
    await clipboard.writeText(marker);
    await vscode.commands.executeCommand("workbench.action.terminal.copyLastCommandAndLastCommandOutput");
    const copied = await clipboard.readText();
    if (!copied || copied === marker) return undefined;
    const newline = copied.indexOf("\n");
    // The command line comes first when the shell reported one.
    return newline > 0
      ? { command: copied.slice(0, newline), output: copied.slice(newline + 1) }
      : { command: "", output: copied };
  } catch {
    return undefined;
  } finally {
    await clipboard.writeText(before);
  }
}

/** Open terminals that are the person's: not the ones Fathom opens for its tasks ("Fathom: …"). */
function personTerminals(): vscode.Terminal[] {
  return vscode.window.terminals.filter((t) => !t.name.startsWith("Fathom"));
}
