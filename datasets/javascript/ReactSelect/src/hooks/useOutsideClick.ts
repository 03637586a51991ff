import { useEffect, useRef } from 'react';
import type { RefObject } from 'react';

/** Calls `handler` on a pointer down or focus outside `ref` while `active` is true. */
export function useOutsideClick<T extends HTMLElement>(
  ref: RefObject<T>,
  handler: (event: Event) => void,
  active = true,
): void {
  const handlerRef = useRef(handler);
  handlerRef.current = handler;

  useEffect(() => {
    if (!active) return;
    function onEvent(event: Event) {
      const node = ref.current;
      const target = event.target as Node | null;
      if (!node || !target || node.contains(target)) return;
      handlerRef.current(event);
    }
    document.addEventListener('mousedown', onEvent);
    document.addEventListener('touchstart', onEvent);
    document.addEventListener('focusin', onEvent);
    return () => {
      document.removeEventListener('mousedown', onEvent);
      document.removeEventListener('touchstart', onEvent);
      document.removeEventListener('focusin', onEvent);
    };
  }, [ref, active]);
}
