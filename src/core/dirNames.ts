import { readdirSync } from "node:fs";

/** The names in a folder; none when it cannot be read (it does not exist yet, or is not a folder). */
export function dirNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
