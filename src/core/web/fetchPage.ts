import { lookup } from "node:dns/promises";
import * as http from "node:http";
import * as https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { type Readable } from "node:stream";
import * as zlib from "node:zlib";
import { bareHost, domainListed, isPrivateAddress, namedExactly } from "./addressGuard";

export interface FetchRules {
  /** Domains the person allowed (their settings, `--allow-domain`); a private host named exactly here may be fetched. */
  allowDomains: readonly string[];
  /** Hosts the person allowed for this task (a redirect may go to these without asking). */
  allowedInTask: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Resolves a host name to its addresses (default: the system's resolver). */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

export type Fetched =
  | {
      ok: true;
      finalUrl: string;
      status: number;
      contentType: string;
      body: Buffer;
      truncated: boolean;
      redirects: string[];
    }
  | { ok: false; error: string; finalUrl?: string };

const HEADERS = {
  "user-agent": "Fathom/0.1 (web_fetch; +https://github.com/fathom)",
  accept: "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5",
  "accept-encoding": "gzip, deflate, br",
};

/**
 * GET a URL under the rules: http(s) only, no credentials, every hop's host allowed and its
 * resolved addresses checked (the connection goes to the address checked, never a second DNS
 * answer), at most `maxRedirects` redirects, the body cut at `maxBytes` (after decompression)
 * and the whole fetch at `timeoutMs`. Never throws: a refusal or failure is `{ ok: false }`
 * with a sentence saying what to do.
 */
export async function fetchPage(url: string, rules: FetchRules, signal: AbortSignal): Promise<Fetched> {
  const deadline = AbortSignal.timeout(rules.timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  const redirects: string[] = [];
  let current = url;
  let firstHost: string | undefined;
  try {
    for (;;) {
      const target = checkUrl(current);
      if ("error" in target) return { ok: false, error: target.error, finalUrl: current };
      const host = bareHost(target.url.hostname);
      firstHost ??= host;
      if (host !== firstHost && !domainListed(host, rules.allowDomains) && !rules.allowedInTask.includes(host)) {
        return {
          ok: false,
          finalUrl: current,
          error: `${url} redirects to ${current}, on ${host}, which this task has not been allowed to fetch from. To read it, call web_fetch with that URL (the person is asked).`,
        };
      }
      const address = await checkedAddress(host, rules);
      if ("error" in address) return { ok: false, error: address.error, finalUrl: current };
      const response = await get(target.url, address, both);
      const location = response.headers.location;
      if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
        response.destroy();
        redirects.push(current);
        if (redirects.length > rules.maxRedirects) {
          return {
            ok: false,
            finalUrl: current,
            error: `Stopped after ${rules.maxRedirects} redirects (a redirect loop?): ${[...redirects, new URL(location, current).href].join(" → ")}`,
          };
        }
        current = new URL(location, current).href;
        continue;
      }
      const { body, truncated } = await readCapped(response, rules.maxBytes);
      return {
        ok: true,
        finalUrl: current,
        status: response.statusCode ?? 0,
        contentType: String(response.headers["content-type"] ?? ""),
        body,
        truncated,
        redirects,
      };
    }
  } catch (error) {
    if (signal.aborted) return { ok: false, error: "The fetch was cancelled.", finalUrl: current };
    if (deadline.aborted)
      return {
        ok: false,
        error: `${current} did not answer within ${Math.round(rules.timeoutMs / 1000)} s. Try again later, or another page.`,
        finalUrl: current,
      };
    return { ok: false, error: `Could not fetch ${current}: ${(error as Error).message}`, finalUrl: current };
  }
}

function checkUrl(raw: string): { url: URL } | { error: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: `"${raw}" is not a URL. Give a full http:// or https:// address.` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { error: `Only http and https pages are fetched; ${url.protocol} URLs are refused.` };
  if (url.username || url.password)
    return {
      error:
        "The URL carries credentials (user:password@host); web_fetch never sends credentials. Fetch the page without them.",
    };
  return { url };
}

async function checkedAddress(
  host: string,
  rules: FetchRules,
): Promise<{ address: string; family: number } | { error: string }> {
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (rules.resolve ?? ((h) => lookup(h, { all: true })))(host);
    } catch (error) {
      return {
        error: `Could not find the host ${host} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Check the URL.`,
      };
    }
  }
  if (addresses.length === 0) return { error: `The host ${host} has no address. Check the URL.` };
  const inside = addresses.find((a) => isPrivateAddress(a.address));
  if (inside && !namedExactly(host, rules.allowDomains)) {
    return {
      error:
        `Refused: ${host} ${host === inside.address ? "is" : `resolves to ${inside.address}, which is`} a loopback, private or link-local address (not the public web). ` +
        `Only a host the person names themselves may be fetched there (fathom.network.allowedDomains in their user settings, or fathom run --allow-domain ${host}).`,
    };
  }
  return addresses[0]!;
}

function get(
  url: URL,
  address: { address: string; family: number },
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  // The connection goes to the address just checked: a second DNS answer cannot move it.
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      { method: "GET", headers: HEADERS, lookup: pinned, signal, agent: false },
      resolve,
    );
    request.on("error", reject);
    request.end();
  });
}

/** The body, decompressed, up to `max` bytes; the rest is not read (a server that streams forever is cut). */
async function readCapped(response: http.IncomingMessage, max: number): Promise<{ body: Buffer; truncated: boolean }> {
  const encoding = String(response.headers["content-encoding"] ?? "").toLowerCase();
  const decoded: Readable =
    encoding === "gzip" || encoding === "x-gzip"
      ? response.pipe(zlib.createGunzip())
      : encoding === "deflate"
        ? response.pipe(zlib.createInflate())
        : encoding === "br"
          ? response.pipe(zlib.createBrotliDecompress())
          : response;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of decoded) {
      const buffer = chunk as Buffer;
      if (size + buffer.length > max) {
        chunks.push(buffer.subarray(0, max - size));
        size = max;
        truncated = true;
        break;
      }
      chunks.push(buffer);
      size += buffer.length;
    }
  } finally {
    response.destroy();
    if (decoded !== response) decoded.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}
