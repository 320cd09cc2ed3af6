// The pairs of engines people compare first: a model's API and what its consumer app shows
// (decisions.md "Comparison analyses": a monitor that tracks both engines of a pair links each tick
// to its comparison). Pure: the pages' Compare engines form imports it.

/** An API and the app that answers the same people, the API first (side a, the baseline). */
export const ENGINE_PAIRS: readonly (readonly [string, string])[] = [
  ["chatgpt", "chatgpt_app"],
  ["gemini", "google_ai_mode"],
  ["gemini", "gemini_app"],
  ["gemini", "google_ai_overview"],
];

/** The pairs both of whose engines are among `engines`, in ENGINE_PAIRS' order. */
export function trackedPairs(engines: readonly string[]): [string, string][] {
  return ENGINE_PAIRS.filter(([a, b]) => engines.includes(a) && engines.includes(b)).map(([a, b]) => [a, b]);
}

/** The pair a Compare engines form starts with: an API and its app when both were run, else the first two engines. */
export function defaultPair(engines: readonly string[]): [string, string] {
  return trackedPairs(engines)[0] ?? [engines[0] ?? "", engines[1] ?? ""];
}
