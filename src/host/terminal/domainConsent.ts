/** The person's answer about one domain: for this task only, always (saved), or no. */
export type DomainAnswer = "task" | "always" | "deny";

/**
 * Which domains sandboxed commands may reach, as the person answered: asked once per domain
 * per task (the many connections of one `npm install` share one question, a "no" too), and a
 * new task asks again unless the person chose "always" (saved by `remember`, at user level).
 * No vscode here, so it is tested on its own.
 */
export class DomainConsent {
  private task: string | undefined;
  private readonly answers = new Map<string, Promise<boolean>>();

  constructor(
    private readonly o: {
      ask: (host: string) => Promise<DomainAnswer | undefined>;
      remember: (host: string) => Promise<void>;
      log?: (line: string) => void;
    },
  ) {}

  /** A task starts: answers given "for this task" no longer count. */
  startTask(taskId: string | undefined): void {
    if (taskId === this.task) return;
    this.task = taskId;
    this.answers.clear();
  }

  /** Whether a sandboxed command may connect to `host` now (asks the person the first time). */
  allows(host: string): Promise<boolean> {
    const key = host.toLowerCase();
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.askOnce(host);
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async askOnce(host: string): Promise<boolean> {
    let answer: DomainAnswer | undefined;
    try {
      answer = await this.o.ask(host);
    } catch {
      answer = undefined;
    }
    if (answer === "always") {
      await this.o
        .remember(host)
        .catch((e: unknown) => this.o.log?.(`Could not save ${host} to fathom.sandbox.allowedDomains: ${String(e)}`));
    }
    const allowed = answer === "task" || answer === "always";
    this.o.log?.(
      allowed
        ? `Sandboxed commands may connect to ${host}${answer === "always" ? " (always)" : " (this task)"}`
        : `A sandboxed connection to ${host} was refused`,
    );
    return allowed;
  }
}
