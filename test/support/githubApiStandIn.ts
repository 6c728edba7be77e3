/**
 * A stand-in for GitHub's REST API on 127.0.0.1, for the action's tests. Every request is
 * checked against GitHub's published OpenAPI description (@octokit/openapi): the route and
 * method exist, the path and query parameters and the JSON body are valid for them, the headers
 * GitHub asks for are there. Each is recorded with what was wrong with it, and answered from a
 * small in-memory model of the repository's pull requests, comments and reviews (or a scripted
 * failure).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Ajv, { type ValidateFunction } from "ajv";
import spec from "@octokit/openapi/generated/api.github.com.json";

export interface RecordedApiRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  rawBody: string;
  /** The OpenAPI operation matched, e.g. "pulls/create". */
  operation?: string;
  /** Why the request is not valid for GitHub's API; empty when it is. */
  problems: string[];
}

export interface ApiFault {
  /** "POST /repos/{owner}/{repo}/pulls" */
  route: string;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** How many requests it answers (default 1). */
  times?: number;
}

export interface GitHubApiStandIn {
  url: string;
  requests: RecordedApiRequest[];
  faults: ApiFault[];
  pulls: { number: number; head: string; base: string; title: string; body: string; state: "open" }[];
  comments: { issue: number; body: string }[];
  /** Reviews posted (or put there by a test), per pull request, oldest first. */
  reviews: { pull: number; id: number; commit_id: string; body: string; event: string; comments: unknown[] }[];
  close(): Promise<void>;
}

type Operation = {
  operationId: string;
  parameters?: unknown[];
  requestBody?: { required?: boolean; content?: Record<string, unknown> };
};
const paths = (spec as unknown as { paths: Record<string, Record<string, Operation>> }).paths;
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(spec as object, "github");
const validators = new Map<string, ValidateFunction>();

function pointer(parts: string[]): string {
  return parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
}

function validatorFor(ref: string): ValidateFunction {
  let v = validators.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: `github#/${ref}` });
    validators.set(ref, v);
  }
  return v;
}

function resolveParameter(p: unknown): {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
  ref?: string;
} {
  const ref = (p as { $ref?: string }).$ref;
  if (!ref) return p as never;
  const name = ref.split("/").pop()!;
  const param = (spec as unknown as { components: { parameters: Record<string, never> } }).components.parameters[name];
  return { ...(param as unknown as object), ref: `components/parameters/${pointer([name])}` } as never;
}

function matchRoute(
  method: string,
  path: string,
): { template: string; op: Operation; params: Record<string, string> } | undefined {
  for (const [template, item] of Object.entries(paths)) {
    const names: string[] = [];
    const pattern = new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{([^}]+)\}/g, (_m, n: string) => (names.push(n), "([^/]+)"))}$`,
    );
    const m = pattern.exec(path);
    const op = item[method.toLowerCase()];
    if (m && op)
      return { template, op, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return undefined;
}

function coerce(value: string, schema: unknown): unknown {
  const type = (schema as { type?: string } | undefined)?.type;
  if (type === "integer" || type === "number") return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  if (type === "boolean") return value === "true" ? true : value === "false" ? false : value;
  return value;
}

function check(req: RecordedApiRequest): { template?: string } {
  const route = matchRoute(req.method, req.path);
  if (!route) {
    req.problems.push(`${req.method} ${req.path} is not an operation of GitHub's REST API`);
    return {};
  }
  req.operation = route.op.operationId;
  const auth = req.headers.authorization;
  if (typeof auth !== "string" || !/^(Bearer|token) \S+$/.test(auth))
    req.problems.push("no Authorization header with a token");
  if (!req.headers["user-agent"]) req.problems.push("no User-Agent header (GitHub refuses requests without one)");
  for (const raw of route.op.parameters ?? []) {
    const p = resolveParameter(raw);
    const given = p.in === "path" ? route.params[p.name] : p.in === "query" ? req.query[p.name] : undefined;
    if (p.in !== "path" && p.in !== "query") continue;
    if (given === undefined) {
      if (p.required) req.problems.push(`missing ${p.in} parameter ${p.name}`);
      continue;
    }
    const v = ajv.compile(p.schema as object);
    if (!v(coerce(given, p.schema)))
      req.problems.push(`${p.in} parameter ${p.name}=${given}: ${ajv.errorsText(v.errors)}`);
  }
  for (const name of Object.keys(req.query)) {
    if (!(route.op.parameters ?? []).some((raw) => resolveParameter(raw).name === name))
      req.problems.push(`unknown query parameter ${name}`);
  }
  const bodySpec = route.op.requestBody?.content?.["application/json"];
  if (bodySpec) {
    if (req.rawBody === "") {
      if (route.op.requestBody?.required) req.problems.push("the request body is required");
    } else {
      if (!String(req.headers["content-type"] ?? "").startsWith("application/json"))
        req.problems.push("the body is not sent as application/json");
      const validate = validatorFor(
        `paths/${pointer([route.template])}/${req.method.toLowerCase()}/requestBody/content/application~1json/schema`,
      );
      if (!validate(req.body)) req.problems.push(`body: ${ajv.errorsText(validate.errors)}`);
    }
  } else if (req.rawBody !== "") req.problems.push("a body was sent to an operation that takes none");
  return { template: route.template };
}

export async function startGitHubApiStandIn(o: {
  repository: string;
  defaultBranch?: string;
}): Promise<GitHubApiStandIn> {
  const state: Omit<GitHubApiStandIn, "url" | "close"> = {
    requests: [],
    faults: [],
    pulls: [],
    comments: [],
    reviews: [],
  };
  const htmlBase = `https://github.com/${o.repository}`;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const recorded: RecordedApiRequest = {
        method: request.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: request.headers,
        body,
        rawBody,
        problems: [],
      };
      if (rawBody && body === undefined) recorded.problems.push("the body is not JSON");
      const { template } = check(recorded);
      state.requests.push(recorded);
      const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { "content-type": "application/json", ...headers });
        response.end(JSON.stringify(value));
      };
      const fault = state.faults.find((f) => f.route === `${recorded.method} ${template}` && (f.times ?? 1) > 0);
      if (fault) {
        fault.times = (fault.times ?? 1) - 1;
        return send(
          fault.status,
          fault.body ?? { message: `scripted ${fault.status}`, documentation_url: "https://docs.github.com/rest" },
          fault.headers,
        );
      }
      if (recorded.problems.length)
        return send(422, { message: "Validation Failed", errors: recorded.problems.map((m) => ({ message: m })) });
      const b = (body ?? {}) as Record<string, string>;
      switch (`${recorded.method} ${template}`) {
        case "GET /repos/{owner}/{repo}":
          return send(200, { full_name: o.repository, default_branch: o.defaultBranch ?? "main" });
        case "GET /repos/{owner}/{repo}/pulls": {
          const head = recorded.query.head?.split(":").slice(1).join(":");
          return send(
            200,
            state.pulls
              .filter((p) => !head || p.head === head)
              .map((p) => ({ number: p.number, html_url: `${htmlBase}/pull/${p.number}`, state: p.state })),
          );
        }
        case "POST /repos/{owner}/{repo}/pulls": {
          if (state.pulls.some((p) => p.head === b.head))
            return send(422, {
              message: "Validation Failed",
              errors: [{ message: `A pull request already exists for ${b.head}.` }],
            });
          const pr = {
            number: 100 + state.pulls.length,
            head: b.head!,
            base: b.base!,
            title: b.title!,
            body: b.body ?? "",
            state: "open" as const,
          };
          state.pulls.push(pr);
          return send(201, { number: pr.number, html_url: `${htmlBase}/pull/${pr.number}` });
        }
        case "PATCH /repos/{owner}/{repo}/pulls/{pull_number}": {
          const pr = state.pulls.find((p) => p.number === Number(url.pathname.split("/").pop()));
          if (!pr) return send(404, { message: "Not Found" });
          Object.assign(pr, b.title ? { title: b.title } : {}, b.body !== undefined ? { body: b.body } : {});
          return send(200, { number: pr.number, html_url: `${htmlBase}/pull/${pr.number}` });
        }
        case "POST /repos/{owner}/{repo}/issues/{issue_number}/comments": {
          const issue = Number(url.pathname.split("/")[5]);
          state.comments.push({ issue, body: b.body ?? "" });
          return send(201, {
            id: state.comments.length,
            html_url: `${htmlBase}/issues/${issue}#issuecomment-${state.comments.length}`,
          });
        }
        case "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews": {
          const pull = Number(url.pathname.split("/")[5]);
          const perPage = Number(recorded.query.per_page ?? 30);
          const page = Number(recorded.query.page ?? 1);
          return send(
            200,
            state.reviews
              .filter((r) => r.pull === pull)
              .slice((page - 1) * perPage, page * perPage)
              .map((r) => ({
                id: r.id,
                body: r.body,
                commit_id: r.commit_id,
                state: "COMMENTED",
                user: { login: "github-actions[bot]" },
                html_url: `${htmlBase}/pull/${pull}#pullrequestreview-${r.id}`,
              })),
          );
        }
        case "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews": {
          const pull = Number(url.pathname.split("/")[5]);
          const review = {
            pull,
            id: 9000 + state.reviews.length,
            commit_id: b.commit_id ?? "",
            body: b.body ?? "",
            event: b.event ?? "",
            comments: ((body as { comments?: unknown[] }).comments ?? []) as unknown[],
          };
          state.reviews.push(review);
          return send(200, {
            id: review.id,
            body: review.body,
            commit_id: review.commit_id,
            state: "COMMENTED",
            html_url: `${htmlBase}/pull/${pull}#pullrequestreview-${review.id}`,
          });
        }
        default:
          return send(404, { message: "Not Found (the stand-in does not serve this operation)" });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
