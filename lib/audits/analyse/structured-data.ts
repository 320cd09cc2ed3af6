// JSON-LD (<script type="application/ld+json">): blocks, blocks that do not parse, the @type of
// each entity the page declares, whether an author or publisher is named, and its dates for
// AuditDates. Microdata and RDFa are not read: structured_data_types is JSON-LD's by the spec.
import type { ParsedPage } from "./dom";

export type StructuredData = {
  blocks: number;
  /** Blocks that do not parse as strict JSON (after an HTML comment or CDATA wrapper is removed). */
  errors: number;
  /** @type of the top-level entities (arrays and @graph flattened, nested values not), each once, in order. */
  types: string[];
  /** An `author` or `publisher` with a value, at any depth. */
  hasAuthorOrPublisher: boolean;
  /** The first datePublished / dateModified at any depth, as written. */
  datePublished: string | null;
  dateModified: string | null;
};

function isJsonLd(type: string | undefined): boolean {
  return (type ?? "").split(";")[0]!.trim().toLowerCase() === "application/ld+json";
}

/** The block's text without the `<!-- -->` or `<![CDATA[ ]]>` some pages wrap it in. */
export function unwrapJsonLd(text: string): string {
  let s = text.trim();
  for (let i = 0; i < 2; i++) {
    s = s
      .replace(/^<!--/, "")
      .replace(/-->$/, "")
      .trim()
      .replace(/^(?:\/\/\s*)?<!\[CDATA\[/, "")
      .replace(/(?:\/\/\s*)?\]\]>$/, "")
      .trim();
  }
  return s;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasValue(value: unknown): boolean {
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.some(hasValue);
  if (isRecord(value)) return Object.entries(value).some(([key, v]) => key !== "@context" && (hasValue(v) || typeof v === "number"));
  return false;
}

function dateValue(value: unknown): string | null {
  if (typeof value === "string") return value.trim() === "" ? null : value.trim();
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = dateValue(item);
      if (found !== null) return found;
    }
  }
  if (isRecord(value)) return dateValue(value["@value"]);
  return null;
}

type Found = { types: Set<string>; author: boolean; published: string | null; modified: string | null };

/**
 * Every object of a block at any depth, in document order, without recursion (JSON-LD can nest
 * deeply). The top-level entities, whose @type is listed, are the block, array items and @graph
 * members; not the values of other properties (an Article's author Person).
 */
function readBlock(value: unknown, into: Found): void {
  const stack: { item: unknown; top: boolean }[] = [{ item: value, top: true }];
  while (stack.length > 0) {
    const { item, top } = stack.pop()!;
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ item: item[i], top });
    } else if (isRecord(item)) {
      if (top) {
        const type = item["@type"];
        for (const t of Array.isArray(type) ? type : [type]) if (typeof t === "string" && t.trim() !== "") into.types.add(t.trim());
      }
      if (!into.author && (hasValue(item.author) || hasValue(item.publisher))) into.author = true;
      if (into.published === null && item.datePublished !== undefined) into.published = dateValue(item.datePublished);
      if (into.modified === null && item.dateModified !== undefined) into.modified = dateValue(item.dateModified);
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        if (typeof child === "object" && child !== null) stack.push({ item: child, top: top && key === "@graph" });
      }
    }
  }
}

export function readStructuredData(page: ParsedPage): StructuredData {
  let blocks = 0;
  let errors = 0;
  const found: Found = { types: new Set(), author: false, published: null, modified: null };
  for (const script of page.byTag.get("script") ?? []) {
    if (!isJsonLd(script.attribs.type)) continue;
    blocks++;
    const text = script.children.map((child) => ("data" in child ? child.data : "")).join("");
    let value: unknown;
    try {
      value = JSON.parse(unwrapJsonLd(text));
    } catch {
      errors++;
      continue;
    }
    readBlock(value, found);
  }
  return { blocks, errors, types: [...found.types], hasAuthorOrPublisher: found.author, datePublished: found.published, dateModified: found.modified };
}
