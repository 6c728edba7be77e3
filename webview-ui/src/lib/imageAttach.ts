import { IMAGE_TYPES, MAX_IMAGE_BYTES, type AttachedImage } from "../../../src/protocol";

const THUMBNAIL_PX = 128;

function formatMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Why `file` cannot be attached, or undefined when it can. */
export function refusal(file: File): string | undefined {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type))
    return `${file.name || "The file"} is not a PNG, JPEG, GIF or WebP image, so it was not attached.`;
  if (file.size > MAX_IMAGE_BYTES)
    return `${file.name || "The image"} is ${formatMb(file.size)}; images up to ${formatMb(MAX_IMAGE_BYTES)} can be sent. Crop or shrink it and attach it again.`;
  return undefined;
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("could not read the file"));
    reader.readAsDataURL(file);
  });
}

/** A small preview (at most 128 px a side) for the message box and the transcript. */
function thumbnail(dataUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      const scale = Math.min(1, THUMBNAIL_PX / Math.max(img.naturalWidth, img.naturalHeight, 1));
      const canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(img.naturalWidth * scale));
      canvas.height = Math.max(1, Math.round(img.naturalHeight * scale));
      const ctx = canvas.getContext("2d");
      if (!ctx) return reject(new Error("no canvas"));
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      // WebP where the browser makes it (small); PNG otherwise.
      resolve(canvas.toDataURL("image/webp", 0.8));
    };
    img.onerror = () => reject(new Error("the image could not be decoded"));
    img.src = dataUrl;
  });
}

/** The file as an attachment: its bytes in base64 and a thumbnail. Throws with a sentence for the person. */
export async function attach(file: File): Promise<AttachedImage> {
  const dataUrl = await readDataUrl(file);
  const comma = dataUrl.indexOf(",");
  const data = comma >= 0 ? dataUrl.slice(comma + 1) : "";
  let thumb: string;
  try {
    thumb = await thumbnail(dataUrl);
  } catch {
    throw new Error(`${file.name || "The image"} could not be read as an image, so it was not attached.`);
  }
  return { mimeType: file.type as AttachedImage["mimeType"], data, thumbnail: thumb };
}

/** The image files of a paste or a drop. */
export function imageFiles(list: DataTransfer | null): File[] {
  if (!list) return [];
  const files: File[] = [];
  for (const item of Array.from(list.items ?? [])) {
    if (item.kind !== "file") continue;
    const file = item.getAsFile();
    if (file) files.push(file);
  }
  if (files.length === 0) files.push(...Array.from(list.files ?? []));
  return files;
}
