// The parts of normalisation every engine shares: one source per distinct page, one citation
// sequence in answer order, one numbering of queries and search calls.
import type { SearchObservation, SourceObservation, Usage } from "@/lib/schemas/results";
import type { RedirectOutcome } from "../types";
import { normalizeUrl, registeredDomain } from "../url";

/** The envelope does not have the shape the provider documents; the run cannot be trusted. */
export class MalformedEnvelopeError extends Error {
  override name = "MalformedEnvelopeError";
}

export function fail(message: string): never {
  throw new MalformedEnvelopeError(message);
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

export function int(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
}

export function sumOrNull(values: Array<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
}

/** Joins answer text runs that a tool call separated, without gluing two sentences together. */
export function joinRuns(answer: string, next: string): string {
  if (answer === "" || next === "") return answer + next;
  if (/\s$/.test(answer) || /^\s/.test(next)) return answer + next;
  return `${answer}\n\n${next}`;
}

const DOMAIN_LIKE = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/i;

interface SourceEntry {
  raw_url: string;
  url: string;
  resolution: SourceObservation["resolution"];
  domain: string | null;
  domain_hint: string | null;
  title: string | null;
  firstSeen: number;
  inResults: boolean;
  retrieved: boolean;
  positions: number[];
}

export interface SourcePolicy {
  /** The provider lists its search results: a page not among them was not seen in one. */
  resultsExposed: boolean;
  /** The provider shows which pages' content reached the model. */
  retrievalExposed: boolean;
  /** The provider has a citation structure in this response (empty counts as present). */
  citationsExposed: boolean;
}

/**
 * Collects every page an engine mentions, merges the ones that are the same page once
 * resolved and normalised, and numbers citation marks in the order they appear in the answer.
 */
export class SourceBook {
  private readonly entries = new Map<string, SourceEntry>();
  private readonly marks: Array<{ at: number; seq: number; key: string }> = [];
  private seen = 0;

  constructor(
    private readonly redirects: Record<string, RedirectOutcome>,
    private readonly isRedirect: (raw: string) => boolean = () => false,
  ) {}

  /** Registers a page and returns its key; `title` fills in only if none is known yet. */
  add(rawUrl: string, title: string | null): string {
    const place = this.place(rawUrl, title);
    const existing = this.entries.get(place.key);
    if (existing) {
      if (existing.title === null && title) existing.title = title;
      if (existing.domain_hint === null && place.domain_hint) existing.domain_hint = place.domain_hint;
      return place.key;
    }
    this.entries.set(place.key, {
      raw_url: rawUrl,
      url: place.url,
      resolution: place.resolution,
      domain: place.domain,
      domain_hint: place.domain_hint,
      title: title || null,
      firstSeen: this.seen++,
      inResults: false,
      retrieved: false,
      positions: [],
    });
    return place.key;
  }

  inResults(key: string): void {
    const entry = this.entries.get(key);
    if (entry) entry.inResults = true;
  }

  retrieved(key: string): void {
    const entry = this.entries.get(key);
    if (entry) entry.retrieved = true;
  }

  /** A citation mark placed at character offset `at` of the answer. */
  cite(key: string, at: number): void {
    this.marks.push({ at, seq: this.marks.length, key });
  }

  get markCount(): number {
    return this.marks.length;
  }

  finish(policy: SourcePolicy): SourceObservation[] {
    const ordered = [...this.marks].sort((a, b) => a.at - b.at || a.seq - b.seq);
    ordered.forEach((mark, i) => this.entries.get(mark.key)?.positions.push(i + 1));
    const entries = [...this.entries.values()].sort(
      (a, b) => (a.positions[0] ?? Infinity) - (b.positions[0] ?? Infinity) || a.firstSeen - b.firstSeen,
    );
    return entries.map((e) => ({
      url: e.url,
      raw_url: e.raw_url,
      resolution: e.resolution,
      domain: e.domain,
      cited: e.positions.length > 0 ? true : policy.citationsExposed ? false : null,
      search_query_observed: e.inResults ? true : policy.resultsExposed ? false : null,
      retrieval_observed: e.retrieved ? true : policy.retrievalExposed ? false : null,
      domain_hint: e.domain_hint,
      title: e.title,
      citation_count: e.positions.length,
      citation_positions: e.positions,
    }));
  }

  private place(rawUrl: string, title: string | null) {
    const outcome = this.redirects[rawUrl];
    if (outcome !== undefined || this.isRedirect(rawUrl)) {
      const target = outcome?.location ? normalizeUrl(outcome.location) : null;
      if (target !== null) {
        return { key: target, url: target, resolution: "resolved" as const, domain: registeredDomain(target), domain_hint: null };
      }
      const hint = title && DOMAIN_LIKE.test(title.trim()) ? title.trim().toLowerCase() : null;
      return { key: `raw:${rawUrl}`, url: rawUrl, resolution: "unresolved" as const, domain: null, domain_hint: hint };
    }
    const url = normalizeUrl(rawUrl) ?? rawUrl;
    return { key: url, url, resolution: "direct" as const, domain: registeredDomain(url), domain_hint: null };
  }
}

/** Numbers queries across the run and search calls in order; a call may carry no query. */
export class SearchLog {
  readonly searches: SearchObservation[] = [];
  calls = 0;

  call(queries: string[], providerSearchId: string | null): void {
    this.calls += 1;
    for (const query of queries) {
      this.searches.push({ query, position: this.searches.length + 1, search_call: this.calls, provider_search_id: providerSearchId });
    }
  }
}

export function emptyUsage(): Usage {
  return { input_tokens: null, output_tokens: null, reasoning_tokens: null, total_tokens: null, web_searches: null };
}
