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
