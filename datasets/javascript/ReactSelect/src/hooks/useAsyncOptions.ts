import { useEffect, useRef, useState } from 'react';
import type { LoadOptions, SelectOption } from '../types';
import { useDebouncedValue } from './useDebouncedValue';

export interface AsyncOptionsState<T> {
  options: SelectOption<T>[];
  loading: boolean;
  error: string | null;
}

/**
 * Loads options for the debounced query. A newer query aborts the older request, results
 * are cached per query, and queries shorter than minLength load nothing.
 */
export function useAsyncOptions<T>(
  loadOptions: LoadOptions<T> | undefined,
  query: string,
  enabled: boolean,
  debounceMs = 250,
  minLength = 0,
): AsyncOptionsState<T> {
  const debouncedQuery = useDebouncedValue(query.trim(), debounceMs);
  const cache = useRef(new Map<string, SelectOption<T>[]>());
  const [state, setState] = useState<AsyncOptionsState<T>>({ options: [], loading: false, error: null });

  useEffect(() => {
    if (!loadOptions || !enabled) return;
    if (debouncedQuery.length < minLength) {
      setState({ options: [], loading: false, error: null });
      return;
    }
    const cached = cache.current.get(debouncedQuery);
    if (cached) {
      setState({ options: cached, loading: false, error: null });
      return;
    }
    const controller = new AbortController();
    setState((prev) => ({ ...prev, loading: true, error: null }));
    loadOptions(debouncedQuery, controller.signal)
      .then((options) => {
        if (controller.signal.aborted) return;
        cache.current.set(debouncedQuery, options);
        setState({ options, loading: false, error: null });
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
        const message = err instanceof Error ? err.message : 'Could not load options';
        setState({ options: [], loading: false, error: message });
      });
    return () => controller.abort();
  }, [loadOptions, debouncedQuery, enabled, minLength]);

  // While the debounce is pending the list still shows the previous results.
  const pending = enabled && !!loadOptions && query.trim() !== debouncedQuery && query.trim().length >= minLength;
  return pending ? { ...state, loading: true } : state;
}
