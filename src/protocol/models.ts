import { z } from "zod";

/**
 * The Model box (which model answers) and images in the message box: what travels between
 * the webview and the host for them.
 */

/** A model as the Model box lists it. */
export const ModelOptionSchema = z.object({
  id: z.string(),
  /** A display name, or the vendor (VS Code's models). */
  name: z.string().optional(),
  contextWindow: z.number().optional(),
  /** US dollars per million tokens. */
  price: z.object({ input: z.number(), output: z.number() }).optional(),
  images: z.boolean().optional(),
  tools: z.boolean().optional(),
});
export type ModelOption = z.infer<typeof ModelOptionSchema>;

/** Images the APIs take (OpenAI, Anthropic and VS Code's models all read these four). */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
/** Anthropic's limit per image; OpenAI's is larger. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES_PER_MESSAGE = 4;

/** An attached image: the bytes in base64 (no `data:` prefix), and a small thumbnail for the transcript. */
export const AttachedImageSchema = z.object({
  mimeType: z.enum(IMAGE_TYPES),
  data: z
    .string()
    .max(Math.ceil(MAX_IMAGE_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, "not base64"),
  /** A `data:image/…;base64,` URL of at most a few kilobytes. */
  thumbnail: z
    .string()
    .max(64_000)
    .regex(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/),
});
export type AttachedImage = z.infer<typeof AttachedImageSchema>;

/** What a user message keeps of its images: thumbnails only (the bytes live in the task's run state). */
export const ImageThumbnailSchema = z.object({ mimeType: z.string(), thumbnail: z.string() });
