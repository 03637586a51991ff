import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { MultiSelectProps, SelectOption } from '../types';
import { useAsyncOptions } from '../hooks/useAsyncOptions';
import { useMultiSelect } from '../hooks/useMultiSelect';
import { useOutsideClick } from '../hooks/useOutsideClick';
import { filterOptions } from '../utils/filterOptions';
import { Chip } from './Chip';
import { OptionList } from './OptionList';
import './MultiSelect.css';

const defaultKey = (value: unknown) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));

export function MultiSelect<T = string>(props: MultiSelectProps<T>) {
  const {
    options = [],
    loadOptions,
    label,
    placeholder = 'Search…',
    maxSelected,
    disabled = false,
    closeOnSelect = false,
    clearable = true,
    minQueryLength = 0,
    debounceMs = 250,
    noOptionsText = 'No options',
    loadingText = 'Loading…',
    renderOption,
    renderChip,
    getOptionKey,
  } = props;

  const generatedId = useId();
  const baseId = props.id ?? `ms${generatedId.replace(/:/g, '')}`;
  const inputId = `${baseId}-input`;
  const listboxId = `${baseId}-listbox`;
  const optionId = useCallback((index: number) => `${baseId}-option-${index}`, [baseId]);

  const keyOf = useCallback((value: T) => (getOptionKey ? getOptionKey({ value, label: '' }) : defaultKey(value)), [getOptionKey]);
  const optionKey = useCallback((option: SelectOption<T>) => (getOptionKey ? getOptionKey(option) : defaultKey(option.value)), [getOptionKey]);

  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [announcement, setAnnouncement] = useState('');

  const isAsync = typeof loadOptions === 'function';
  const [query, setQueryText] = useState('');
  const asyncState = useAsyncOptions(loadOptions, query, isAsync && !disabled, debounceMs, minQueryLength);
  const allOptions = isAsync ? asyncState.options : options;

  const ms = useMultiSelect<T>({
    value: props.value,
    defaultValue: props.defaultValue,
    onChange: props.onChange,
    maxSelected,
    allOptions,
    keyOf,
  });
  const { menu, dispatch, selectedOptions, isSelected, atMax } = ms;

  // Keep the reducer's query and the async hook's query in step.
  useEffect(() => {
    if (menu.query !== query) setQueryText(menu.query);
  }, [menu.query, query]);

  // Async results are already filtered by the server.
  const visible = useMemo(
    () => (isAsync ? allOptions : filterOptions(allOptions, menu.query, false, isSelected)),
    [isAsync, allOptions, menu.query, isSelected],
  );
  const trimmed = menu.query.trim();
  const optionCount = visible.length;

  useOutsideClick(rootRef, () => dispatch({ type: 'close' }), menu.isOpen);

  // Keep the active option inside the list when the list shrinks.
  useEffect(() => {
    if (menu.isOpen && menu.activeIndex >= optionCount) {
      dispatch({ type: 'setActive', index: optionCount - 1 });
    }
  }, [menu.isOpen, menu.activeIndex, optionCount, dispatch]);

  useEffect(() => {
    if (!menu.isOpen || menu.activeIndex < 0) return;
    const node = document.getElementById(optionId(menu.activeIndex));
    if (node && typeof node.scrollIntoView === 'function') node.scrollIntoView({ block: 'nearest' });
  }, [menu.isOpen, menu.activeIndex, optionId]);

  function pick(option: SelectOption<T>) {
    const result = ms.toggle(option);
    if (result === 'added') setAnnouncement(`${option.label} selected.`);
    else if (result === 'removed') setAnnouncement(`${option.label} removed.`);
    else if (atMax) setAnnouncement(`You can select up to ${maxSelected} items.`);
    if (result !== 'rejected') {
      dispatch({ type: 'clearQuery' });
      if (closeOnSelect) dispatch({ type: 'close' });
    }
  }

  function remove(option: SelectOption<T>) {
    if (disabled) return;
    ms.toggle(option);
    setAnnouncement(`${option.label} removed.`);
    inputRef.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (disabled) return;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!menu.isOpen) dispatch({ type: 'open', index: menu.activeIndex >= 0 ? menu.activeIndex : 0 });
        else ms.move(visible, event.altKey ? 'last' : 'next');
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (event.altKey) dispatch({ type: 'close' });
        else ms.move(visible, menu.isOpen ? 'prev' : 'last');
        break;
      case 'Home':
        if (!menu.isOpen) return;
        event.preventDefault();
        ms.move(visible, 'first');
        break;
      case 'End':
        if (!menu.isOpen) return;
        event.preventDefault();
        ms.move(visible, 'last');
        break;
      case 'Enter': {
        if (!menu.isOpen) {
          dispatch({ type: 'open', index: 0 });
          break;
        }
        event.preventDefault();
        if (visible[menu.activeIndex]) pick(visible[menu.activeIndex]);
        break;
      }
      case 'Escape':
        if (menu.isOpen) {
          event.preventDefault();
          dispatch({ type: 'close' });
        } else if (menu.query) {
          dispatch({ type: 'clearQuery' });
        } else if (clearable && selectedOptions.length > 0) {
          ms.clear();
          setAnnouncement('All selections cleared.');
        }
        break;
      case 'Backspace':
        if (menu.query === '' && selectedOptions.length > 0) {
          const removed = ms.removeLast();
          if (removed) setAnnouncement(`${removed.label} removed.`);
        }
        break;
      case 'Tab':
        dispatch({ type: 'close' });
        break;
      default:
        break;
    }
  }

  const showMenu = menu.isOpen && !disabled;
  const activeDescendant = showMenu && menu.activeIndex >= 0 && menu.activeIndex < optionCount ? optionId(menu.activeIndex) : undefined;
  let hint = '';
  if (isAsync && trimmed.length < minQueryLength) hint = `Type at least ${minQueryLength} characters`;

  return (
    <div ref={rootRef} className={`ms-root${disabled ? ' ms-root--disabled' : ''}${showMenu ? ' ms-root--open' : ''}`}>
      <label htmlFor={inputId} className="ms-label">
        {label}
      </label>
      <div className="ms-control" onClick={() => !disabled && inputRef.current?.focus()}>
        {selectedOptions.length > 0 && (
          <ul className="ms-chips" aria-label={`Selected ${label}`}>
            {selectedOptions.map((option) =>
              renderChip ? (
                <li key={optionKey(option)} className="ms-chip-custom">
                  {renderChip(option, () => remove(option))}
                </li>
              ) : (
                <Chip key={optionKey(option)} label={option.label} disabled={disabled} onRemove={() => remove(option)} />
              ),
            )}
          </ul>
        )}
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          role="combobox"
          aria-expanded={showMenu}
          aria-controls={listboxId}
          aria-autocomplete="list"
          aria-activedescendant={activeDescendant}
          aria-describedby={hint ? `${baseId}-hint` : undefined}
          autoComplete="off"
          className="ms-input"
          placeholder={selectedOptions.length === 0 ? placeholder : ''}
          value={menu.query}
          disabled={disabled}
          onChange={(event) => dispatch({ type: 'setQuery', query: event.target.value })}
          onKeyDown={onKeyDown}
          onFocus={() => dispatch({ type: 'open' })}
        />
        {clearable && selectedOptions.length > 0 && !disabled && (
          <button
            type="button"
            className="ms-clear"
            aria-label="Clear all"
            onClick={(event) => {
              event.stopPropagation();
              ms.clear();
              setAnnouncement('All selections cleared.');
            }}
          >
            Clear
          </button>
        )}
      </div>
      {hint && (
        <div id={`${baseId}-hint`} className="ms-hint">
          {hint}
        </div>
      )}
      {showMenu && (
        <OptionList<T>
          id={listboxId}
          label={label}
          options={visible}
          activeIndex={menu.activeIndex}
          query={menu.query}
          loading={isAsync && asyncState.loading}
          error={isAsync ? asyncState.error : null}
          atMax={atMax}
          maxSelected={maxSelected}
          noOptionsText={noOptionsText}
          loadingText={loadingText}
          isSelected={isSelected}
          optionId={optionId}
          keyOf={optionKey}
          onPick={pick}
          onHover={(index) => dispatch({ type: 'setActive', index })}
          renderOption={renderOption}
        />
      )}
      <div className="ms-sr-only" role="status" aria-live="polite">
        {announcement}
      </div>
    </div>
  );
}
