import { useCallback, useMemo, useReducer, useState } from 'react';
import type { SelectOption } from '../types';
import { firstEnabledIndex, lastEnabledIndex, nextEnabledIndex } from '../utils/filterOptions';

export interface MenuState {
  isOpen: boolean;
  query: string;
  activeIndex: number;
}

export type MenuAction =
  | { type: 'open'; index?: number }
  | { type: 'close' }
  | { type: 'toggle' }
  | { type: 'setQuery'; query: string }
  | { type: 'clearQuery' }
  | { type: 'setActive'; index: number };

export function menuReducer(state: MenuState, action: MenuAction): MenuState {
  switch (action.type) {
    case 'open':
      if (state.isOpen && action.index === undefined) return state;
      return { ...state, isOpen: true, activeIndex: action.index ?? state.activeIndex };
    case 'close':
      return state.isOpen ? { ...state, isOpen: false, activeIndex: -1 } : state;
    case 'toggle':
      return state.isOpen ? { ...state, isOpen: false, activeIndex: -1 } : { ...state, isOpen: true };
    case 'setQuery':
      // Typing always opens the menu and puts the first match under the cursor.
      return { ...state, query: action.query, isOpen: true, activeIndex: 0 };
    case 'clearQuery':
      return state.query === '' ? state : { ...state, query: '', activeIndex: 0 };
    case 'setActive':
      return state.activeIndex === action.index ? state : { ...state, activeIndex: action.index };
    default:
      return state;
  }
}

interface UseMultiSelectArgs<T> {
  value?: T[];
  defaultValue?: T[];
  onChange?: (value: T[], options: SelectOption<T>[]) => void;
  maxSelected?: number;
  allOptions: SelectOption<T>[];
  keyOf: (value: T) => string;
}

export function useMultiSelect<T>({ value, defaultValue, onChange, maxSelected, allOptions, keyOf }: UseMultiSelectArgs<T>) {
  const [menu, dispatch] = useReducer(menuReducer, { isOpen: false, query: '', activeIndex: -1 });
  const [inner, setInner] = useState<T[]>(defaultValue ?? []);
  // Options chosen once are remembered so chips keep their label when async results change.
  const [known, setKnown] = useState<Map<string, SelectOption<T>>>(() => new Map());
  const isControlled = value !== undefined;
  const selected = isControlled ? value : inner;

  const selectedKeys = useMemo(() => new Set(selected.map(keyOf)), [selected, keyOf]);
  const isSelected = useCallback((option: SelectOption<T>) => selectedKeys.has(keyOf(option.value)), [selectedKeys, keyOf]);
  const atMax = maxSelected !== undefined && maxSelected > 0 && selected.length >= maxSelected;

  const selectedOptions = useMemo(() => {
    const byKey = new Map<string, SelectOption<T>>();
    for (const option of allOptions) byKey.set(keyOf(option.value), option);
    return selected.map((v) => {
      const key = keyOf(v);
      return byKey.get(key) ?? known.get(key) ?? { value: v, label: String(v) };
    });
  }, [selected, allOptions, known, keyOf]);

  const commit = useCallback(
    (next: T[], nextOptions: SelectOption<T>[]) => {
      if (!isControlled) setInner(next);
      if (onChange) onChange(next, nextOptions);
    },
    [isControlled, onChange],
  );

  /** Adds or removes an option. Returns what happened, for the live region. */
  const toggle = useCallback(
    (option: SelectOption<T>): 'added' | 'removed' | 'rejected' => {
      if (option.disabled) return 'rejected';
      const key = keyOf(option.value);
      if (selectedKeys.has(key)) {
        commit(
          selected.filter((v) => keyOf(v) !== key),
          selectedOptions.filter((o) => keyOf(o.value) !== key),
        );
        return 'removed';
      }
      if (atMax) return 'rejected';
      setKnown((prev) => (prev.has(key) ? prev : new Map(prev).set(key, option)));
      commit([...selected, option.value], [...selectedOptions, option]);
      return 'added';
    },
    [keyOf, selectedKeys, atMax, commit, selected, selectedOptions],
  );

  const removeLast = useCallback((): SelectOption<T> | null => {
    if (selected.length === 0) return null;
    const last = selectedOptions[selectedOptions.length - 1];
    commit(selected.slice(0, -1), selectedOptions.slice(0, -1));
    return last;
  }, [selected, selectedOptions, commit]);

  const clear = useCallback(() => {
    if (selected.length > 0) commit([], []);
  }, [selected, commit]);

  const move = useCallback(
    (visible: SelectOption<T>[], where: 'next' | 'prev' | 'first' | 'last') => {
      let index = -1;
      if (where === 'first') index = firstEnabledIndex(visible);
      else if (where === 'last') index = lastEnabledIndex(visible);
      else if (where === 'next') index = nextEnabledIndex(visible, menu.activeIndex, 1);
      else index = nextEnabledIndex(visible, menu.activeIndex < 0 ? visible.length : menu.activeIndex, -1);
      dispatch({ type: 'open', index });
    },
    [menu.activeIndex],
  );

  return { menu, dispatch, selected, selectedOptions, isSelected, atMax, toggle, removeLast, clear, move };
}
