// For client components only: false in the server's HTML and until React has hydrated, so a
// button whose work is a click handler is not clicked while it would do nothing.
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
