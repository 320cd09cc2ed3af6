// CSV for researchers' spreadsheets (RFC 4180: CRLF line ends, fields with a comma, quote or line
// break quoted, quotes doubled). Query, prompt and answer texts come from engines and people, so a
// text cell a spreadsheet would read as a formula gets a leading apostrophe (OWASP "CSV injection").
// The fanout queries' download and the API's mentions CSV write their cells with it.

export type CsvValue = string | number | null | undefined;

/** What a spreadsheet takes for the start of a formula (tab and CR as OWASP lists them too). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: text guarded against formulas, then quoted when it must be; numbers as written. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
