// Ids are `<prefix>_<ULID>` (spec 2.1). One monotonic factory per process, so ids made within
// the same millisecond still sort in the order they were made.
import { monotonicFactory } from "ulid";
import { ULID_PATTERN } from "../schemas/common";

export const ID_PREFIXES = {
  workspace: "ws",
  project: "pr",
  run: "dr",
  batch: "rq",
  fanout: "fo",
  questionsAnalysis: "fa",
  citationAnalysis: "ca",
  share: "sh",
  apiKey: "ak",
  cliToken: "ct",
  // Internal objects the spec gives no prefix.
  user: "us",
  invitation: "iv",
  deviceCode: "dc",
  session: "se",
  account: "ac",
  hold: "ch",
  transaction: "tx",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

const nextUlid = monotonicFactory();

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${nextUlid()}`;
}

const ULID_RE = new RegExp(`^${ULID_PATTERN}$`);

/** Whether `id` is a well-formed id of one of the given prefixes. */
export function isId(id: string, ...prefixes: IdPrefix[]): boolean {
  const sep = id.indexOf("_");
  if (sep < 0) return false;
  return (prefixes as string[]).includes(id.slice(0, sep)) && ULID_RE.test(id.slice(sep + 1));
}
