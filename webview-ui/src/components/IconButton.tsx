import type { ButtonHTMLAttributes } from "react";

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> {
  /** The codicon's name (codicon-NAME). */
  icon: string;
  /** The accessible name (aria-label); the title is the tooltip. */
  label: string;
}

/** A button that shows only a codicon: its name is `label`, its tooltip `title`. */
export function IconButton({ icon, label, className, ...rest }: Props) {
  return (
    <button
      type="button"
      className={className ? `icon-button ${className}` : "icon-button"}
      aria-label={label}
      {...rest}
    >
      <span className={`codicon codicon-${icon}`} aria-hidden="true" />
    </button>
  );
}
