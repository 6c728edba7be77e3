import { useState, type ClipboardEvent, type DragEvent } from "react";
import { MAX_IMAGES_PER_MESSAGE, type AttachedImage, type ChatState } from "../../../src/protocol";
import { attach, imageFiles, refusal } from "./imageAttach";

/**
 * The images a message will carry, from paste or drop: each checked here (and again by the
 * host), taken only when the model reads images; what is refused is said through `setError`.
 */
export function useImageAttachments(model: ChatState["model"], setError: (message: string) => void) {
  const [images, setImages] = useState<AttachedImage[]>([]);

  const addFiles = async (files: File[]) => {
    if (files.length === 0) return;
    if (!model.images) {
      setError(
        `${model.model || "The model in use"} does not read images, so the image was not attached. Pick a model that reads images in Model, at the top.`,
      );
      return;
    }
    const problems: string[] = [];
    const added: AttachedImage[] = [];
    for (const file of files) {
      const why = refusal(file);
      if (why) problems.push(why);
      else if (images.length + added.length >= MAX_IMAGES_PER_MESSAGE)
        problems.push(`A message takes at most ${MAX_IMAGES_PER_MESSAGE} images.`);
      else {
        try {
          added.push(await attach(file));
        } catch (err) {
          problems.push((err as Error).message);
        }
      }
    }
    if (added.length) setImages((current) => [...current, ...added].slice(0, MAX_IMAGES_PER_MESSAGE));
    setError([...new Set(problems)].join(" "));
  };

  // Text pasted or dropped is left to the box: only images are taken here.
  const take = (event: ClipboardEvent | DragEvent, data: DataTransfer | null) => {
    const files = imageFiles(data);
    if (files.length === 0) return;
    event.preventDefault();
    void addFiles(files);
  };

  return {
    images,
    clear: () => setImages([]),
    remove: (index: number) => setImages((current) => current.filter((_, i) => i !== index)),
    onPaste: (event: ClipboardEvent) => take(event, event.clipboardData),
    onDrop: (event: DragEvent) => take(event, event.dataTransfer),
  };
}
