import { BlockList, isIP } from "node:net";

/**
 * Addresses `web_fetch` refuses unless the person named the host itself: loopback, private
 * ranges, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast and
 * reserved ranges, in IPv4 and IPv6 (an IPv4-mapped IPv6 address is checked as its IPv4 one).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, prefix, "ipv6");

/** Whether `address` (an IP) is one that is not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, "ipv4");
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** A host as written in a URL, without IPv6 brackets, lower-cased. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

/** The host of an allowed-domains entry: `example.com`, `example.com:8080`, `*.example.com`, `127.0.0.1`, `[::1]:3000` or `::1`. */
function entryHost(entry: string): string {
  const e = entry.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\]/.exec(e);
  if (bracketed) return bracketed[1]!;
  return (e.match(/:/g) ?? []).length > 1 ? e : e.replace(/:\d+$/, "");
}

/** `host` is in the list: exactly, or under a `*.domain` entry (which never names a private host). */
export function domainListed(host: string, domains: readonly string[]): boolean {
  return domains.some((entry) => {
    const d = entryHost(entry);
    return d.startsWith("*.") ? host.endsWith(d.slice(1)) : host === d;
  });
}

/** The person named this host itself (no wildcard): the explicit allowance for a private address. */
export function namedExactly(host: string, domains: readonly string[]): boolean {
  return domains.some((entry) => !entry.trim().startsWith("*.") && entryHost(entry) === host);
}
