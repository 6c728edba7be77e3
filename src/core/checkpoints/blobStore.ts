import { createHash, randomBytes } from "node:crypto";
import { promises as fsp } from "node:fs";
import * as nodePath from "node:path";

/**
 * File contents by their SHA-256, outside the workspace: `<dir>/<2 hex>/<62 hex>`. A blob is
 * written once (a temp file renamed into place, so a kill leaves no half blob) and never
 * changed; the same bytes kept twice take the space once.
 */
export class BlobStore {
  constructor(readonly dir: string) {}

  static hashOf(bytes: Buffer): string {
    return createHash("sha256").update(bytes).digest("hex");
  }

  private pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`Not a blob id: ${hash}`);
    return nodePath.join(this.dir, hash.slice(0, 2), hash.slice(2));
  }

  /** Keeps `bytes`; returns their hash. */
  async put(bytes: Buffer): Promise<string> {
    const hash = BlobStore.hashOf(bytes);
    const target = this.pathOf(hash);
    if (
      await fsp.access(target).then(
        () => true,
        () => false,
      )
    )
      return hash;
    await fsp.mkdir(nodePath.dirname(target), { recursive: true });
    const tmp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    await fsp.writeFile(tmp, bytes, { flag: "wx" });
    await fsp.rename(tmp, target);
    return hash;
  }

  get(hash: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(hash));
  }

  /** Every blob with its size. */
  async list(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const shards = await fsp.readdir(this.dir).catch(() => [] as string[]);
    for (const shard of shards) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      for (const name of await fsp.readdir(nodePath.join(this.dir, shard)).catch(() => [] as string[])) {
        const file = nodePath.join(this.dir, shard, name);
        if (name.endsWith(".tmp")) {
          // Left by a kill mid-write: never renamed into place, so never referenced.
          await fsp.unlink(file).catch(() => undefined);
          continue;
        }
        const st = await fsp.stat(file).catch(() => null);
        if (st) out.set(shard + name, st.size);
      }
    }
    return out;
  }

  /** Deletes the blobs not in `keep`; returns the bytes freed. */
  async removeAllBut(keep: ReadonlySet<string>): Promise<number> {
    let freed = 0;
    for (const [hash, size] of await this.list()) {
      if (keep.has(hash)) continue;
      await fsp.unlink(this.pathOf(hash)).then(
        () => (freed += size),
        () => undefined,
      );
    }
    return freed;
  }
}
