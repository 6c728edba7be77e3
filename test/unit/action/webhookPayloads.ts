/**
 * Real webhook payloads (@octokit/webhooks-examples, collected from GitHub's deliveries), each
 * copied and changed only where a test says (a label, a body, an author association).
 */
import examples from "@octokit/webhooks-examples";

type Payload = Record<string, unknown> & { [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A deep copy of the first example of `event` whose `action` is `action` (any when omitted). */
export function webhookPayload(event: string, action?: string): Payload {
  const found = (examples as unknown as { name: string; examples: Payload[] }[]).find((e) => e.name === event);
  const example = found?.examples.find((p) => action === undefined || p.action === action);
  if (!example) throw new Error(`@octokit/webhooks-examples has no ${event}${action ? `.${action}` : ""} payload`);
  return structuredClone(example);
}
