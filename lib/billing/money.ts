// Money is integer micro-dollars (bigint) inside and decimal strings outside. No floats, ever.

export const MICROS_PER_USD = 1_000_000n;
const USD_PATTERN = /^(-)?(\d+)(?:\.(\d{1,6}))?$/;

export class MoneyFormatError extends Error {
  override name = "MoneyFormatError";
}

/** Parses "12.50" into 12_500_000n micro-dollars. Numbers, exponents and over six decimals are refused. */
export function parseUsd(value: unknown, options: { allowNegative?: boolean } = {}): bigint {
  if (typeof value !== "string") throw new MoneyFormatError("must be a decimal string such as \"12.50\", not a number");
  const match = USD_PATTERN.exec(value.trim());
  if (!match) throw new MoneyFormatError(`must be a decimal amount with at most 6 decimals, such as "12.50" (got ${JSON.stringify(value)})`);
  const [, minus, whole, fraction = ""] = match;
  if (minus && !options.allowNegative) throw new MoneyFormatError("must not be negative");
  const micros = BigInt(whole!) * MICROS_PER_USD + BigInt(fraction.padEnd(6, "0"));
  return minus ? -micros : micros;
}

/** Formats micro-dollars with two to six decimals: "0.02", "0.015", "12.50", "-3.00". */
export function formatUsd(micros: bigint): string {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const whole = abs / MICROS_PER_USD;
  let fraction = (abs % MICROS_PER_USD).toString().padStart(6, "0");
  while (fraction.length > 2 && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}
