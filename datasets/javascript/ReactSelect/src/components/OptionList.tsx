import type { ReactNode } from 'react';
import type { OptionRenderState, SelectOption } from '../types';
import { Highlight } from './Highlight';

interface OptionListProps<T> {
  id: string;
  label: string;
  options: SelectOption<T>[];
  activeIndex: number;
  query: string;
  loading: boolean;
  error: string | null;
  atMax: boolean;
  maxSelected?: number;
  noOptionsText: string;
  loadingText: string;
  isSelected: (option: SelectOption<T>) => boolean;
  optionId: (index: number) => string;
  keyOf: (option: SelectOption<T>) => string;
  onPick: (option: SelectOption<T>) => void;
  onHover: (index: number) => void;
  renderOption?: (option: SelectOption<T>, state: OptionRenderState) => ReactNode;
}

export function OptionList<T>(props: OptionListProps<T>) {
  const { id, options, activeIndex, query, loading, error, atMax, isSelected, optionId, keyOf, onPick, onHover, renderOption } = props;

  function renderOne(option: SelectOption<T>, index: number) {
    const selected = isSelected(option);
    // At the limit, unselected options cannot be chosen, but selected ones can be removed.
    const disabled = !!option.disabled || (atMax && !selected);
    const active = index === activeIndex;
    const state: OptionRenderState = { active, selected, disabled, query };
    let className = 'ms-option';
    if (active) className += ' ms-option--active';
    if (selected) className += ' ms-option--selected';
    if (disabled) className += ' ms-option--disabled';
    return (
      <li
        key={keyOf(option)}
        id={optionId(index)}
        role="option"
        aria-selected={selected}
        aria-disabled={disabled || undefined}
        className={className}
        onMouseDown={(event) => event.preventDefault()}
        onMouseMove={() => {
          if (!active) onHover(index);
        }}
        onClick={() => {
          if (!disabled) onPick(option);
        }}
      >
        {renderOption ? (
          renderOption(option, state)
        ) : (
          <>
            <span className="ms-check" aria-hidden="true">
              {selected ? '✓' : ''}
            </span>
            <Highlight text={option.label} query={query} />
            {option.description && <small className="ms-option-description">{option.description}</small>}
          </>
        )}
      </li>
    );
  }

  let status: string | null = null;
  if (loading) status = props.loadingText;
  else if (error) status = error;
  else if (options.length === 0) status = props.noOptionsText;

  return (
    <ul id={id} role="listbox" aria-multiselectable="true" aria-label={props.label} className="ms-listbox" aria-busy={loading || undefined}>
      {status && (
        <li className={error && !loading ? 'ms-status ms-status--error' : 'ms-status'} role="presentation">
          {status}
        </li>
      )}
      {atMax && props.maxSelected !== undefined && (
        <li className="ms-status" role="presentation">
          You can select up to {props.maxSelected} items.
        </li>
      )}
      {!loading && options.map((option, index) => renderOne(option, index))}
    </ul>
  );
}
