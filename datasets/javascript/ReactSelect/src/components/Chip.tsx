import type { KeyboardEvent } from 'react';

interface ChipProps {
  label: string;
  disabled?: boolean;
  onRemove: () => void;
}

export function Chip({ label, disabled, onRemove }: ChipProps) {
  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'Backspace' || event.key === 'Delete') {
      event.preventDefault();
      onRemove();
    }
  }

  return (
    <li className="ms-chip">
      <span className="ms-chip-label">{label}</span>
      <button
        type="button"
        className="ms-chip-remove"
        aria-label={`Remove ${label}`}
        disabled={disabled}
        onClick={(event) => {
          event.stopPropagation();
          onRemove();
        }}
        onKeyDown={onKeyDown}
      >
        ×
      </button>
    </li>
  );
}
