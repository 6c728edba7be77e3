import { execFile } from "node:child_process";

/**
 * The PATH of the person's login shell. VS Code started from a dock or a desktop menu often has
 * a minimal PATH, so `npx` installed by nvm, volta or Homebrew is not found ("spawn npx ENOENT",
 * the commonest MCP complaint). Asked once, with a timeout; the current PATH when it fails.
 */
let cached: Promise<string | undefined> | undefined;

export function loginShellPath(): Promise<string | undefined> {
  if (process.platform === "win32") return Promise.resolve(process.env.PATH);
  cached ??= new Promise((resolve) => {
    const shell = process.env.SHELL || "/bin/sh";
    execFile(
      shell,
      ["-ilc", 'printf "__FATHOM_PATH__%s__END__" "$PATH"'],
      { timeout: 5_000, env: process.env },
      (error, stdout) => {
        const found = /__FATHOM_PATH__(.*?)__END__/s.exec(stdout ?? "")?.[1];
        resolve(found && !error ? found : process.env.PATH);
      },
    );
  });
  return cached;
}

/** `base` with PATH from the login shell, the entries of the current PATH it lacks appended. */
export async function withLoginShellPath(base: NodeJS.ProcessEnv = process.env): Promise<NodeJS.ProcessEnv> {
  const shellPath = await loginShellPath();
  if (!shellPath) return base;
  const parts = shellPath.split(":");
  for (const p of (base.PATH ?? "").split(":")) if (p && !parts.includes(p)) parts.push(p);
  return { ...base, PATH: parts.join(":") };
}
