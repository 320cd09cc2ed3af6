// A prompts box's lines, as every form that takes prompts reads them (a fanout, a new monitor of
// typed prompts, what a monitor measures): one prompt per non-blank line, trimmed of the line's
// ends, in order (a line given twice runs twice).
export function promptLines(value: FormDataEntryValue | null | undefined): string[] {
  if (typeof value !== "string") return [];
  return value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * Prompts given one box each (a monitor's "What it measures" when a prompt spans several lines):
 * each box's text with its line breaks as a browser sends them (CRLF) read as LF, trimmed of its
 * ends; empty boxes skipped; in order.
 */
export function promptBoxes(values: readonly FormDataEntryValue[]): string[] {
  return values
    .filter((v): v is string => typeof v === "string")
    .map((v) => v.replace(/\r\n?/g, "\n").trim())
    .filter(Boolean);
}
