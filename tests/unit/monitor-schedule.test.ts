// A monitor's slots, in UTC: the latest at or before a time and the first after it, daily and
// weekly (ISO weekdays, Monday = 1), across month, year and leap-day boundaries; and the webhook
// secret sealed under the server's key.
import { describe, expect, it } from "vitest";
import { latestSlot, monthStart, nextSlot, scheduleOf, storedSchedule } from "@/lib/monitors/schedule";
import { scheduleInWords } from "@/lib/schemas/monitors";
import { newWebhookSecret, openWebhookSecret, sealWebhookSecret, WebhookSecretUnreadable } from "@/lib/monitors/secret";

// The key the secret is sealed under comes from AUTH_SECRET (else a file in the data folder).
process.env.AUTH_SECRET = "unit-test-auth-secret-of-at-least-32-characters";

const t = (iso: string) => new Date(iso);
const iso = (d: Date) => d.toISOString();

describe("daily slots", () => {
  const s = storedSchedule({ every: "day", at: "06:00" });

  it("is the same day's slot once it has come, the day before's until then", () => {
    expect(iso(latestSlot(s, t("2026-11-26T06:00:00.000Z")))).toBe("2026-11-26T06:00:00.000Z");
    expect(iso(latestSlot(s, t("2026-11-26T05:59:59.999Z")))).toBe("2026-11-25T06:00:00.000Z");
    expect(iso(latestSlot(s, t("2026-11-26T23:59:00.000Z")))).toBe("2026-11-26T06:00:00.000Z");
    expect(iso(nextSlot(s, t("2026-11-26T06:00:00.000Z")))).toBe("2026-11-27T06:00:00.000Z");
    expect(iso(nextSlot(s, t("2026-11-26T05:59:59.999Z")))).toBe("2026-11-26T06:00:00.000Z");
  });

  it("crosses months, years and leap days", () => {
    const midnight = storedSchedule({ every: "day", at: "00:00" });
    expect(iso(nextSlot(midnight, t("2026-12-31T12:00:00.000Z")))).toBe("2027-01-01T00:00:00.000Z");
    expect(iso(nextSlot(storedSchedule({ every: "day", at: "23:59" }), t("2028-02-28T23:59:30.000Z")))).toBe("2028-02-29T23:59:00.000Z");
    expect(iso(latestSlot(midnight, t("2028-03-01T00:00:00.000Z")))).toBe("2028-03-01T00:00:00.000Z");
  });
});

describe("weekly slots", () => {
  it("falls on its ISO weekday (Monday 1 … Sunday 7) at its time", () => {
    // 2026-11-26 is a Thursday.
    const monday = storedSchedule({ every: "week", at: "07:30", weekday: 1 });
    expect(iso(latestSlot(monday, t("2026-11-26T12:00:00.000Z")))).toBe("2026-11-23T07:30:00.000Z");
    expect(iso(nextSlot(monday, t("2026-11-26T12:00:00.000Z")))).toBe("2026-11-30T07:30:00.000Z");
    const thursday = storedSchedule({ every: "week", at: "07:30", weekday: 4 });
    expect(iso(latestSlot(thursday, t("2026-11-26T07:29:00.000Z")))).toBe("2026-11-19T07:30:00.000Z");
    expect(iso(latestSlot(thursday, t("2026-11-26T07:30:00.000Z")))).toBe("2026-11-26T07:30:00.000Z");
    const sunday = storedSchedule({ every: "week", at: "23:00", weekday: 7 });
    expect(iso(nextSlot(sunday, t("2026-11-26T12:00:00.000Z")))).toBe("2026-11-29T23:00:00.000Z");
    expect(new Date(nextSlot(sunday, t("2026-11-26T12:00:00.000Z"))).getUTCDay()).toBe(0);
  });

  it("is on Mondays when no weekday is given; every slot is strictly after the time asked about", () => {
    const s = storedSchedule({ every: "week", at: "09:00" });
    expect(s.weekday).toBe(1);
    for (let h = 0; h < 24 * 14; h += 7) {
      const now = new Date(Date.parse("2026-11-01T00:00:00.000Z") + h * 3_600_000);
      const latest = latestSlot(s, now);
      const next = nextSlot(s, now);
      expect(latest.getTime()).toBeLessThanOrEqual(now.getTime());
      expect(next.getTime()).toBeGreaterThan(now.getTime());
      expect(next.getTime() - latest.getTime()).toBe(7 * 86_400_000);
      expect(latest.getUTCDay()).toBe(1);
    }
  });
});

describe("the schedule as shown", () => {
  it("writes HH:MM and the weekday, null for daily ones, and says it in words", () => {
    expect(scheduleOf(storedSchedule({ every: "day", at: "06:05" }))).toEqual({ every: "day", at: "06:05", weekday: null });
    expect(scheduleOf(storedSchedule({ every: "week", at: "18:30", weekday: 5 }))).toEqual({ every: "week", at: "18:30", weekday: 5 });
    expect(scheduleInWords(scheduleOf(storedSchedule({ every: "week", at: "18:30", weekday: 5 })))).toBe("every Friday at 18:30 UTC");
    expect(scheduleInWords(scheduleOf(storedSchedule({ every: "day", at: "06:00" })))).toBe("every day at 06:00 UTC");
    expect(iso(monthStart(t("2026-11-26T19:00:00.000Z")))).toBe("2026-11-01T00:00:00.000Z");
  });
});

describe("the webhook secret", () => {
  it("is sealed, not stored as it is, and opened again to sign with", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    const sealed = sealWebhookSecret(secret);
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(secret.slice(6));
    expect(sealWebhookSecret(secret)).not.toBe(sealed);
    expect(openWebhookSecret(sealed)).toBe(secret);
  });

  it("refuses a value changed in the database, or not sealed at all", () => {
    const sealed = sealWebhookSecret(newWebhookSecret());
    const [v, iv, body] = sealed.split(".");
    // One bit of the ciphertext changed (decoded, so the change never falls in base64's padding bits).
    const bytes = Buffer.from(body!, "base64url");
    bytes[0] = bytes[0]! ^ 1;
    const flipped = `${v}.${iv}.${bytes.toString("base64url")}`;
    expect(flipped).not.toBe(sealed);
    expect(() => openWebhookSecret(flipped)).toThrow(WebhookSecretUnreadable);
    expect(() => openWebhookSecret("whsec_plain")).toThrow(WebhookSecretUnreadable);
  });
});
