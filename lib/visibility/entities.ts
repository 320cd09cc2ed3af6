// The brands and competitors a visibility analysis tracks (decisions.md "Visibility analyses"):
// as given in the request, or from the project context.

import type { Entity, EntityRole } from "../schemas/visibility";

export type { Entity, EntityRole };

/** The project context fields an analysis reads (lib/schemas/projects.ts ProjectContext, with the wave 3 additions). */
export type EntityContext = {
  primary_domain?: string | null;
  domains?: readonly string[];
  brands?: readonly string[];
  competitors?: readonly string[];
  /** A brand's or competitor's name -> its other names. */
  aliases?: Readonly<Record<string, readonly string[]>>;
  /** A competitor's name -> its domains. */
  competitor_domains?: Readonly<Record<string, readonly string[]>>;
};

const unique = (items: readonly string[], key: (s: string) => string = (s) => s) => {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

/**
 * An entity as the analysis uses it: names trimmed and in NFC, aliases without blanks, repeats or
 * the name itself (compared ignoring case unless case_sensitive), domains lower-cased once each.
 */
export function normalizeEntity(entity: Entity): Entity {
  const name = entity.name.normalize("NFC").trim();
  const key = entity.case_sensitive ? (s: string) => s.replace(/\s+/gu, " ") : (s: string) => s.replace(/\s+/gu, " ").toLowerCase();
  const aliases = unique(
    entity.aliases.map((a) => a.normalize("NFC").trim()).filter((a) => a !== "" && key(a) !== key(name)),
    key,
  );
  const domains = unique(entity.domains.map((d) => d.trim().toLowerCase().replace(/\.$/, "")).filter((d) => d !== ""));
  return { name, role: entity.role, aliases, domains, case_sensitive: entity.case_sensitive };
}

/**
 * The project's brands then competitors as entities: each brand with the project's primary_domain
 * and domains, each competitor with its competitor_domains, each with its aliases; a name listed
 * twice is one entity (the first). Not case sensitive: the context does not say.
 */
export function entitiesFromContext(context: EntityContext): Entity[] {
  const projectDomains = [...(context.primary_domain ? [context.primary_domain] : []), ...(context.domains ?? [])];
  const seen = new Set<string>();
  const out: Entity[] = [];
  const add = (raw: string, role: EntityRole, domains: readonly string[]) => {
    const name = raw.trim();
    if (name === "" || seen.has(name)) return;
    seen.add(name);
    out.push(normalizeEntity({ name, role, aliases: [...(context.aliases?.[name] ?? [])], domains: [...domains], case_sensitive: false }));
  };
  for (const brand of context.brands ?? []) add(brand, "brand", projectDomains);
  for (const competitor of context.competitors ?? []) add(competitor, "competitor", context.competitor_domains?.[competitor.trim()] ?? []);
  return out;
}

/** Names of `aliases` and `competitor_domains` keys that name no brand or competitor of the context (400 for the caller). */
export function unknownContextKeys(context: EntityContext): { aliases: string[]; competitor_domains: string[] } {
  const names = new Set([...(context.brands ?? []), ...(context.competitors ?? [])].map((n) => n.trim()));
  const competitors = new Set((context.competitors ?? []).map((n) => n.trim()));
  return {
    aliases: Object.keys(context.aliases ?? {}).filter((k) => !names.has(k.trim())),
    competitor_domains: Object.keys(context.competitor_domains ?? {}).filter((k) => !competitors.has(k.trim())),
  };
}
