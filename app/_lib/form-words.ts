// A refusal in the words of the form that was sent: the API names fields by their paths in the
// request ("context.primary_domain: must be …"), a person knows them by the form's labels
// ("Primary domain: must be …"). Pure, so the wording is tested without a browser.

/**
 * A form's labels by request path, indices written `[]` ("context.domains[]": "Other domains").
 * `{n}` in a label is the item's number, 1-based ("prompts[].text": "Prompt {n}"); a label
 * without it gets "(item n)" when the path names an item.
 */
export type FieldLabels = Readonly<Record<string, string>>;

const ISSUE = /^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*): ([\s\S]*)$/;
/** Where one field's complaint ends and the next begins ("a: x; b: y", lib/http/input.ts). */
const NEXT_ISSUE = /; (?=[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*: )/;

function labelOf(path: string, labels: FieldLabels): string | null {
  if (labels[path]) return labels[path];
  const indices = [...path.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]) + 1);
  const label = labels[path.replace(/\[\d+\]/g, "[]")] ?? labels[path.replace(/\[\d+\].*$/, "[]")] ?? labels[path.replace(/\[\d+\].*$/, "")];
  if (!label) return null;
  if (indices.length === 0) return label;
  return label.includes("{n}") ? label.replace("{n}", String(indices[0])) : `${label} (item ${indices[0]})`;
}

/** Each "path: rule" of the message with its path in the form's words; anything else as it was. */
export function inFormWords(message: string, labels: FieldLabels): string {
  return message
    .split(NEXT_ISSUE)
    .map((part) => {
      const issue = ISSUE.exec(part);
      const label = issue ? labelOf(issue[1]!, labels) : null;
      return label ? `${label}: ${issue![2]}` : part;
    })
    .join("; ");
}

/**
 * A 402's message without the address it ends with ("… Add credit at https://…/account#billing"):
 * the page shows a "Go to billing" link in its place.
 */
export function withoutBillingAddress(message: string): string {
  return message.replace(/\s*Add credit at \S+?\.?$/, "").replace(/\s*https?:\/\/\S+/g, "").trim();
}
