import { createInterface } from "node:readline/promises";

/** The terminal a question is asked on. */
export interface PromptStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
  /** Ctrl+C while the question is open (readline swallows the signal). */
  onInterrupt: () => void;
}

/**
 * Asks a yes/no question at the terminal. Only "y" or "yes" is a yes: anything else, a closed
 * input or Ctrl+C is a no (a question about running a stranger's program defaults to not).
 */
export async function askYesNo(io: PromptStreams, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.input, output: io.output, terminal: io.input.isTTY === true });
  const interrupted = new AbortController();
  rl.on("SIGINT", () => {
    interrupted.abort();
    io.onInterrupt();
  });
  try {
    const reply = (await rl.question(`${question} [y]es / [N]o: `, { signal: interrupted.signal }))
      .trim()
      .toLowerCase();
    return reply === "y" || reply === "yes";
  } catch {
    return false;
  } finally {
    rl.close();
  }
}
