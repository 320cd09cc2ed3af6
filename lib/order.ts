// The engines' one order (the registry's, ENGINE_IDS), for everything that lists figures per
// engine: the CLI's tables, the exports the CLI and the pages write alike.
import { ENGINE_IDS } from "./schemas/common";

/**
 * Items about engines in the engines' one order, whatever order an answer lists them in, so every
 * table and line names them alike; ties keep their order, and anything not an engine id goes last.
 */
export function inEngineOrder<T>(items: readonly T[], engineOf: (item: T) => string | null | undefined): T[] {
  const rank = (item: T) => {
    const at = (ENGINE_IDS as readonly string[]).indexOf(engineOf(item) ?? "");
    return at === -1 ? ENGINE_IDS.length : at;
  };
  return items.map((item, i) => ({ item, i })).sort((a, b) => rank(a.item) - rank(b.item) || a.i - b.i).map(({ item }) => item);
}
