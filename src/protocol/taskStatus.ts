import { z } from "zod";

export const TaskStatusSchema = z.enum([
  "idle",
  "running",
  "awaiting_approval",
  "completed",
  "failed",
  "cancelled",
  "interrupted",
]);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;
