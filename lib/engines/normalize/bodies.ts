// The provider response bodies of an envelope that a normaliser reads: the 2xx ones, in order.
import type { EngineEnvelope } from "../types";
import { fail } from "./common";

export function successfulBodies(envelope: EngineEnvelope): unknown[] {
  const bodies = envelope.exchanges
    .filter((x) => x.response !== null && x.response.status >= 200 && x.response.status < 300)
    .map((x) => x.response!.body);
  if (bodies.length === 0) fail(`${envelope.engine}: the envelope holds no successful response`);
  return bodies;
}
