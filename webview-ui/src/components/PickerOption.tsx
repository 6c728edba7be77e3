import type { ReactNode } from "react";

interface Props {
  id: string;
  active: boolean;
  /** Its class; " active" is added while it is the active one, then `modifier` (if any). */
  className: string;
  modifier?: string;
  title?: string;
  onPick: () => void;
  children: ReactNode;
}

/** One option of a picker whose text box keeps focus (aria-activedescendant): mentions, commands, models. */
export function PickerOption({ id, active, className, modifier = "", title, onPick, children }: Props) {
  return (
    <li
      id={id}
      role="option"
      aria-selected={active}
      className={`${className}${active ? " active" : ""}${modifier}`}
      title={title}
      // mousedown, not click: the box must not lose focus (and close) first.
      onMouseDown={(event) => {
        event.preventDefault();
        onPick();
      }}
    >
      {children}
    </li>
  );
}

export const pickerOptionId = (listId: string, index: number) => `${listId}-option-${index}`;

/** A picker over the message box (`@` files, `/` commands): what it offers, which one is highlighted, its moves. */
export interface PickerState<T> {
  open: boolean;
  items: T[];
  active: number;
  loading: boolean;
  /** Moves the highlight down (1) or up (-1), round the list. */
  move: (step: 1 | -1) => void;
  pick: (index: number) => void;
  close: () => void;
}

interface ListProps<T> {
  id: string;
  picker: Pick<PickerState<T>, "items" | "active" | "pick">;
  /** The picker's class ("mentions" and more). */
  className: string;
  label: string;
  busy?: boolean;
  /** Said (role status) when there are no items. */
  empty: ReactNode;
  keyOf: (item: T) => string;
  titleOf?: (item: T) => string;
  children: (item: T) => ReactNode;
}

/** The list of a picker under or over the message box: its options, or what it says when there are none. */
export function PickerList<T>({
  id,
  picker: { items, active, pick },
  className,
  label,
  busy,
  empty,
  keyOf,
  titleOf,
  children,
}: ListProps<T>) {
  return (
    <div className={className}>
      {items.length === 0 ? (
        <div className="mentions-empty" role="status">
          {empty}
        </div>
      ) : null}
      <ul className="mentions-list" id={id} role="listbox" aria-label={label} aria-busy={busy}>
        {items.map((item, index) => (
          <PickerOption
            key={keyOf(item)}
            id={pickerOptionId(id, index)}
            active={index === active}
            className="mention-option"
            title={titleOf?.(item)}
            onPick={() => pick(index)}
          >
            {children(item)}
          </PickerOption>
        ))}
      </ul>
    </div>
  );
}
