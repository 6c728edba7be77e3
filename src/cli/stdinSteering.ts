import { createInterface, type Interface } from "node:readline";
import type { SteeringInbox } from "../core/agent/steering";

/**
 * While `fathom run` works at a terminal, a line the person types is sent to the task (the model
 * reads it at its next step). Questions and approvals read the terminal themselves: the reader
 * stops while one is open (`whileAsking`), so an answer is never taken for a message.
 */
export class StdinSteering {
  private rl: Interface | undefined;
  private asking = 0;
  private stopped = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly inbox: SteeringInbox,
  ) {}

  start(): void {
    this.output.write("Type a message and press Enter to send it to the agent while it works.\n");
    this.listen();
  }

  /** Runs a prompt of its own on the terminal with the reader stopped. */
  async whileAsking<T>(ask: () => Promise<T>): Promise<T> {
    this.asking++;
    this.close();
    try {
      return await ask();
    } finally {
      this.asking--;
      this.listen();
    }
  }

  stop(): void {
    this.stopped = true;
    this.close();
  }

  private listen(): void {
    if (this.stopped || this.asking > 0 || this.rl) return;
    // No terminal mode: the line is echoed as typed and nothing is redrawn over the answer's text.
    const rl = createInterface({ input: this.input, terminal: false });
    rl.on("line", (line) => {
      if (!line.trim()) return;
      this.inbox.push(line);
      this.output.write(`(sent: the agent reads it at its next step)\n`);
    });
    this.rl = rl;
  }

  private close(): void {
    this.rl?.close();
    this.rl = undefined;
  }
}
