// A vendor's cost, sent as a JSON number of USD, as the API's decimal string: rounded once to
// micro-dollars at the border, never carried as a float.
import { formatUsd } from "../../billing/money";

export function usdOf(value: unknown): string | null {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return null;
  return formatUsd(BigInt(Math.round(value * 1_000_000)));
}
