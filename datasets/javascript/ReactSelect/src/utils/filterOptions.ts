import type { SelectOption } from '../types';

export interface Segment {
  text: string;
  match: boolean;
}

/** Lower case without diacritics, so "Zürich" matches "zurich". */
export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/**
 * Options whose label (or description) contains the query. Options starting with the
 * query come first; otherwise the original order is kept.
 */
export function filterOptions<T>(
  options: SelectOption<T>[],
  query: string,
  hideSelected: boolean,
  isSelected: (option: SelectOption<T>) => boolean,
): SelectOption<T>[] {
  const needle = normalize(query.trim());
  const starts: SelectOption<T>[] = [];
  const contains: SelectOption<T>[] = [];
  for (const option of options) {
    if (hideSelected && isSelected(option)) continue;
    if (!needle) {
      starts.push(option);
      continue;
    }
    const label = normalize(option.label);
    if (label.startsWith(needle)) {
      starts.push(option);
    } else if (label.includes(needle) || (option.description && normalize(option.description).includes(needle))) {
      contains.push(option);
    }
  }
  return starts.concat(contains);
}

/** Splits a label into the parts that match the query and the parts that do not. */
export function highlight(label: string, query: string): Segment[] {
  const needle = normalize(query.trim());
  if (!needle) return [{ text: label, match: false }];
  const haystack = normalize(label);
  const segments: Segment[] = [];
  let from = 0;
  let at = haystack.indexOf(needle);
  // normalize() keeps the length for Latin text, so indexes carry over to the label.
  while (at !== -1 && needle.length > 0) {
    if (at > from) segments.push({ text: label.slice(from, at), match: false });
    segments.push({ text: label.slice(at, at + needle.length), match: true });
    from = at + needle.length;
    at = haystack.indexOf(needle, from);
  }
  if (from < label.length) segments.push({ text: label.slice(from), match: false });
  return segments;
}

/** Index of the next enabled option from `start` in direction `step`, wrapping around. */
export function nextEnabledIndex<T>(options: SelectOption<T>[], start: number, step: 1 | -1): number {
  const count = options.length;
  if (count === 0) return -1;
  let index = start;
  for (let tries = 0; tries < count; tries++) {
    index += step;
    if (index >= count) index = 0;
    else if (index < 0) index = count - 1;
    if (!options[index].disabled) return index;
  }
  return -1;
}

export function firstEnabledIndex<T>(options: SelectOption<T>[]): number {
  return nextEnabledIndex(options, -1, 1);
}

export function lastEnabledIndex<T>(options: SelectOption<T>[]): number {
  return nextEnabledIndex(options, options.length, -1);
}
