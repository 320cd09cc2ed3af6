// A long email address on the account page, at the widths where it cannot fit on one line (640 and
// 390 px): it wraps after its @ or before one of its dots, never inside a name ("department.e" /
// "xampleenterprise.com" before), reads and copies as written, and nothing scrolls sideways.
// Sign-in by the mailed link also finds a mail whose To: header a long address folded.
import { expect, test } from "@playwright/test";
import { signIn } from "./support";
import { lineBreaksIn, screenshots } from "./screens";

const EMAIL = `maximiliane.schneiderhohenzollern.${Date.now()}@marketing-and-growth.department.exampleenterprise.com`;

test("a long email address wraps after its @ or before a dot, never inside a name, at 640 and 390 px", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 640, height: 900 });
  await signIn(page, EMAIL);
  const places = { "signed in as": page.getByTestId("signed-in-as"), member: page.locator('[data-testid^="member-"] > span').first() };
  for (const width of [640, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [where, element] of Object.entries(places)) {
      // The address as written (the member's line says " (you)" after it).
      expect((await element.textContent())!.startsWith(EMAIL), where).toBe(true);
      const breaks = (await lineBreaksIn(element)).filter((b) => b.at < EMAIL.length);
      expect(breaks.length, `${where} at ${width} px`).toBeGreaterThan(0);
      // Each line of the address but its last ends at its @ or a hyphen, or before a dot.
      for (const { at, around } of breaks) {
        const ok = EMAIL[at - 1] === "@" || EMAIL[at - 1] === "-" || EMAIL[at] === ".";
        expect(ok, `${where} at ${width} px breaks "${EMAIL.slice(Math.max(0, at - 12), at)}|${EMAIL.slice(at, at + 12)}" (${around})`).toBe(true);
      }
    }
  }
  await screenshots(page, testInfo, "account-long-email");
});
