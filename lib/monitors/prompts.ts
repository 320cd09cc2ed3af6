// A monitor's prompts given again as lines of text (the monitor page's prompts box, the CLI's
// --prompt and --file): a line that was one of its prompts keeps that prompt's question (source)
// and own market; a new line is its text alone. Pure: the page's action and the CLI both use it.

type Kept = { text: string; source?: unknown; location?: unknown; language?: unknown };

/**
 * The prompts to send for `lines`. A text the monitor has several times (one per market, as from
 * a fanout across countries) is matched occurrence by occurrence: the second such line keeps the
 * second such prompt's market, and a line past the last of them is new.
 */
export function keptPrompts<P extends Kept>(lines: readonly string[], current: readonly P[]): Array<{ text: string } & Partial<Pick<P, "source" | "location" | "language">>> {
  const byText = new Map<string, P[]>();
  for (const p of current) byText.set(p.text, [...(byText.get(p.text) ?? []), p]);
  const used = new Map<string, number>();
  return lines.map((text) => {
    const n = used.get(text) ?? 0;
    used.set(text, n + 1);
    const was = byText.get(text)?.[n];
    return {
      text,
      ...(was?.source ? { source: was.source } : {}),
      ...(was?.location ? { location: was.location } : {}),
      ...(was?.language ? { language: was.language } : {}),
    } as { text: string } & Partial<Pick<P, "source" | "location" | "language">>;
  });
}
