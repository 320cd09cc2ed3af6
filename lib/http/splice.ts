// Writing a JSON body as text from a statement's text columns (the spliced reads: lib/runs/read.ts,
// lib/fanouts/text.ts, lib/analyses/text.ts), byte for byte what JSON.stringify of the presented
// object gives.

/** A text column as a JSON string, or null. */
export const jsonString = (value: string | null | undefined = null) => (value === null ? "null" : JSON.stringify(value));

/** A numeric text column as a JSON number, or null. */
export const jsonNumber = (value: string | null | undefined = null) => (value === null ? "null" : String(Number(value)));

/**
 * jsonb's text (spaced, `{"a": 1}`, keys in jsonb's order) as the API writes it: what Prisma's
 * parse of the column and the route's JSON.stringify made of it. `whenNull` for a null column.
 */
export const compactJson = (text: string | null | undefined, whenNull: string) => (text == null ? whenNull : JSON.stringify(JSON.parse(text)));

/**
 * An object's members as JSON text, in order: [key, JSON text] pairs, a member whose text is
 * undefined left out as JSON.stringify leaves out an undefined property.
 */
export function jsonObject(members: readonly (readonly [string, string | undefined])[]): string {
  let out = "";
  for (const [key, text] of members) {
    if (text === undefined) continue;
    out += `${out ? "," : "{"}${JSON.stringify(key)}:${text}`;
  }
  return out ? `${out}}` : "{}";
}
