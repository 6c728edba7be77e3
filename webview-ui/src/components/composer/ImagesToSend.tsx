import type { AttachedImage } from "../../../../src/protocol";

/** The thumbnails of the images the message will carry, each with its Remove button. */
export function ImagesToSend({ images, onRemove }: { images: AttachedImage[]; onRemove: (index: number) => void }) {
  if (!images.length) return null;
  return (
    <ul className="image-thumbnails composer-images" aria-label="Images to send">
      {images.map((image, i) => (
        <li key={i}>
          <img src={image.thumbnail} alt={`Image ${i + 1} to send`} />
          <button
            type="button"
            className="icon-button image-remove"
            aria-label={`Remove image ${i + 1}`}
            title="Remove this image"
            onClick={() => onRemove(i)}
          >
            <span className="codicon codicon-close" aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}
