import { Minimatch } from "minimatch";

/**
 * Files that usually hold credentials. Reading one needs the person's approval even when reads
 * are auto-approved (an injected prompt must not be able to read `.env` and send it to the
 * provider), and `grep` leaves them out of its results. Patterns are globs over the path from
 * the workspace root; a pattern without `/` matches the file name in any folder.
 */
export const DEFAULT_SECRET_FILES: readonly string[] = [
  ".env",
  ".env.*",
  "!.env.example",
  "!.env.sample",
  "!.env.template",
  "!.env.dist",
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  "*.keystore",
  "*.jks",
  "id_rsa*",
  "id_dsa*",
  "id_ecdsa*",
  "id_ed25519*",
  "!id_*.pub",
  ".npmrc",
  ".pypirc",
  ".netrc",
  ".git-credentials",
  ".htpasswd",
  "credentials.json",
  "credentials",
  "secrets.*",
  "*.tfvars",
  "service-account*.json",
  ".git/config",
];

/** Which patterns a path matches; `!pattern` lines exempt what earlier lines matched (gitignore-like). */
export type SecretFileMatcher = (rel: string) => string | undefined;

/**
 * The built-in list with the person's additions (`pattern`) and removals (`!pattern` of a
 * built-in, or any exemption). Later lines win, as in `.gitignore`.
 */
export function secretFileMatcher(userPatterns: readonly string[] = []): SecretFileMatcher {
  const rules = [...DEFAULT_SECRET_FILES, ...userPatterns]
    .map((p) => p.trim())
    .filter((p) => p !== "" && p !== "!")
    .map((p) => {
      const exempt = p.startsWith("!");
      const glob = exempt ? p.slice(1) : p;
      // `.git/config` is also `sub/.git/config`; a name alone is that name in any folder.
      const anywhere = glob.includes("/") && !glob.startsWith("**/") ? `**/${glob}` : glob;
      return {
        exempt,
        glob,
        matcher: new Minimatch(anywhere, { dot: true, nocase: true, matchBase: !glob.includes("/") }),
      };
    });
  return (rel) => {
    const path = rel.replace(/^\/+/, "");
    let hit: string | undefined;
    for (const rule of rules) {
      if (!rule.matcher.match(path)) continue;
      hit = rule.exempt ? undefined : rule.glob;
    }
    return hit;
  };
}
