import type { ReactNode } from 'react';

export interface SelectOption<T = string> {
  value: T;
  label: string;
  disabled?: boolean;
  description?: string;
}

export interface OptionRenderState {
  active: boolean;
  selected: boolean;
  disabled: boolean;
  query: string;
}

export type LoadOptions<T> = (query: string, signal: AbortSignal) => Promise<SelectOption<T>[]>;

export interface MultiSelectProps<T = string> {
  /** Static options; ignored when loadOptions is given. */
  options?: SelectOption<T>[];
  /** Async mode: called with the debounced query. */
  loadOptions?: LoadOptions<T>;
  value?: T[];
  defaultValue?: T[];
  onChange?: (value: T[], options: SelectOption<T>[]) => void;
  label: string;
  placeholder?: string;
  maxSelected?: number;
  disabled?: boolean;
  closeOnSelect?: boolean;
  clearable?: boolean;
  minQueryLength?: number;
  debounceMs?: number;
  noOptionsText?: string;
  loadingText?: string;
  renderOption?: (option: SelectOption<T>, state: OptionRenderState) => ReactNode;
  renderChip?: (option: SelectOption<T>, remove: () => void) => ReactNode;
  getOptionKey?: (option: SelectOption<T>) => string;
  id?: string;
}
