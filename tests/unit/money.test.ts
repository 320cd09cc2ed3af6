import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatUsd, parseUsd } from "@/lib/billing/money";

describe("money", () => {
  it("adds decimal strings exactly: 0.1 + 0.2 is 0.30", () => {
    expect(formatUsd(parseUsd("0.1") + parseUsd("0.2"))).toBe("0.30");
  });

  it("formats with two to six decimals", () => {
    expect(formatUsd(20_000n)).toBe("0.02");
    expect(formatUsd(15_000n)).toBe("0.015");
    expect(formatUsd(12_500_000n)).toBe("12.50");
    expect(formatUsd(0n)).toBe("0.00");
    expect(formatUsd(1n)).toBe("0.000001");
    expect(formatUsd(-3_000_000n)).toBe("-3.00");
    expect(formatUsd(123_456_789_012_345_678n)).toBe("123456789012.345678");
  });

  it("refuses numbers, exponents, negatives where not allowed, and more than six decimals", () => {
    for (const bad of [0.1, 1, "1e3", "1E-2", "-1.00", "0.0000001", "1.", ".5", "", " ", "1,00", "NaN", "Infinity", null, undefined]) {
      expect(() => parseUsd(bad), String(bad)).toThrow();
    }
    expect(parseUsd("-1.25", { allowNegative: true })).toBe(-1_250_000n);
  });

  it("round-trips every amount of micro-dollars", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (micros) => {
        expect(parseUsd(formatUsd(micros), { allowNegative: true })).toBe(micros);
      }),
    );
  });
});
