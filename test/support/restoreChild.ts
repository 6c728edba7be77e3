// Restores a task's files to checkpoint 0 (argv: workspace, store dir, task id); says "restoring"
// on stdout first. The kill -9 test kills it part way.
import { FilesystemBackend } from "../../src/core/backends/filesystem";
import { CheckpointStore } from "../../src/core/checkpoints/checkpointStore";

void (async () => {
  const [root, storeDir, taskId] = process.argv.slice(2) as [string, string, string];
  const store = new CheckpointStore({ dir: storeDir });
  const backend = new FilesystemBackend({ rootDir: root, ripgrepPath: null });
  const plan = await store.plan(taskId, 0, backend);
  process.stdout.write("restoring\n");
  const result = await store.restore(plan, backend);
  process.stdout.write(`restored ${result.restored.length}\n`);
})();
