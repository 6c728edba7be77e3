import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { ChatState, ModelOption } from "../../../src/protocol";
import { formatTokens } from "../lib/format";
import type { ModelListView } from "../state/chatReducer";
import { postToHost } from "../vscodeApi";
import { PickerOption } from "./PickerOption";

interface Props {
  model: ChatState["model"];
  list: ModelListView | undefined;
}

const LIST_ID = "model-list";
const optionId = (index: number) => `${LIST_ID}-option-${index}`;

/** "$2 / $8" per million tokens; cents where they matter. */
function formatPrice(price: { input: number; output: number }): string {
  const one = (n: number) => (n === 0 ? "free" : `$${n >= 1 ? Number(n.toFixed(2)) : Number(n.toPrecision(2))}`);
  return price.input === 0 && price.output === 0 ? "free" : `${one(price.input)} / ${one(price.output)} per M tokens`;
}

function describe(option: ModelOption): string {
  return [
    option.name,
    option.contextWindow ? `${formatTokens(option.contextWindow)} context` : undefined,
    option.price ? formatPrice(option.price) : undefined,
    option.images ? "reads images" : undefined,
    option.tools === false ? "no native tools" : undefined,
  ]
    .filter(Boolean)
    .join(" · ");
}

/**
 * The Model box in the header: an editable combobox. It lists the provider's models (asked of
 * the host each time it opens) with context window and price; typing filters them, and Enter
 * takes the highlighted model or, when none matches, exactly what was typed (a model the
 * server cannot list, or one it has not been asked about).
 */
export function ModelPicker({ model, list }: Props) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(model.model);
  const [typed, setTyped] = useState(false);
  const [active, setActive] = useState(-1);
  const requestId = useRef(0);
  const input = useRef<HTMLInputElement>(null);
  /** A pick not yet confirmed by the host (shown meanwhile, so the box does not flick back). */
  const picked = useRef<string | null>(null);

  // The host's model is the truth: show it whenever the box is not being edited.
  useEffect(() => {
    picked.current = null;
    if (!open) setText(model.model);
  }, [model.model]);

  const answer = list && list.requestId === requestId.current ? list : undefined;
  const query = typed ? text.trim().toLowerCase() : "";
  const options = (answer?.models ?? [])
    .filter((m) => !query || m.id.toLowerCase().includes(query) || (m.name ?? "").toLowerCase().includes(query))
    .slice(0, 200);

  const openList = () => {
    if (open) return;
    requestId.current += 1;
    postToHost({ type: "listModels", requestId: requestId.current });
    setOpen(true);
    setTyped(false);
    setActive(-1);
  };

  const close = () => {
    setOpen(false);
    setTyped(false);
    setText(picked.current ?? model.model);
  };

  const pick = (id: string) => {
    const value = id.trim();
    if (value && value !== model.model) {
      picked.current = value;
      postToHost({ type: "setModel", model: value });
    }
    close();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) return openList();
      if (options.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current + step + options.length + (current < 0 && step < 0 ? 1 : 0)) % options.length);
    } else if (event.key === "Enter") {
      event.preventDefault();
      const chosen = active >= 0 ? options[active] : undefined;
      pick(chosen ? chosen.id : text);
      input.current?.blur();
    } else if (event.key === "Escape") {
      if (!open) return;
      event.preventDefault();
      close();
    }
  };

  let status: string | undefined;
  if (open && !answer) status = "Loading models…";
  else if (open && answer?.error) status = answer.error;
  else if (open && options.length === 0)
    status =
      typed && text.trim()
        ? `No listed model matches. Press Enter to use “${text.trim()}”.`
        : "The provider listed no models. Type a model id and press Enter.";

  return (
    <div className="model-picker">
      <span className="codicon codicon-sparkle" aria-hidden="true" />
      <input
        ref={input}
        className="model-input"
        role="combobox"
        aria-label="Model"
        aria-expanded={open}
        aria-controls={LIST_ID}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 && options[active] ? optionId(active) : undefined}
        title={
          model.model
            ? `${model.provider} · ${model.model}${model.images ? " · reads images" : ""}`
            : "Pick or type a model"
        }
        placeholder="Pick or type a model"
        spellCheck={false}
        value={text}
        onFocus={(event) => {
          openList();
          event.currentTarget.select();
        }}
        onClick={openList}
        onChange={(event) => {
          setText(event.target.value);
          setTyped(true);
          setActive(-1);
          if (!open) openList();
        }}
        onBlur={close}
        onKeyDown={onKeyDown}
      />
      {open ? (
        <div className="model-popup">
          {status ? (
            <div className={`model-status${answer?.error ? " error" : ""}`} role="status">
              {status}
            </div>
          ) : null}
          <ul className="model-list" id={LIST_ID} role="listbox" aria-label="Models">
            {options.map((option, index) => (
              <PickerOption
                key={option.id}
                id={optionId(index)}
                active={index === active}
                className="model-option"
                modifier={option.id === model.model ? " current" : ""}
                onPick={() => {
                  pick(option.id);
                  input.current?.blur();
                }}
              >
                <span className="model-id">{option.id}</span>
                {describe(option) ? <span className="model-detail">{describe(option)}</span> : null}
              </PickerOption>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
