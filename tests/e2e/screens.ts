// Screenshots the e2e specs keep as artefacts: each page at desktop and phone width, full page,
// attached to the report (test-results/), with nothing scrolling sideways on the phone.
import { expect, type Locator, type Page, type TestInfo } from "@playwright/test";

export async function screenshots(page: Page, testInfo: TestInfo, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const { scrollWidth, clientWidth, wide } = await page.evaluate(() => {
      const clientWidth = document.documentElement.clientWidth;
      // The innermost elements reaching past the window's right edge: what to fix when it fails.
      // Not those an ancestor clips or scrolls (a hidden table header, a wide table in its box): they widen nothing.
      const clipped = (e: Element) => {
        for (let x = e.parentElement; x && x !== document.body; x = x.parentElement) if (getComputedStyle(x).overflowX !== "visible") return true;
        return false;
      };
      const past = [...document.body.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > clientWidth + 0.5 && !clipped(e));
      const innermost = past.filter((e) => !past.some((o) => o !== e && e.contains(o)));
      const wide = innermost.slice(0, 3).map((e) => `<${e.tagName.toLowerCase()} class="${e.getAttribute("class") ?? ""}"${e.getAttribute("data-testid") ? ` data-testid="${e.getAttribute("data-testid")}"` : ""}> "${(e.textContent ?? "").trim().slice(0, 60)}"`);
      return { scrollWidth: document.documentElement.scrollWidth, clientWidth, wide };
    });
    expect(scrollWidth, `${name} is ${scrollWidth}px wide in a ${clientWidth}px window; past its edge: ${wide.join("; ")}`).toBeLessThanOrEqual(clientWidth);
    const path = testInfo.outputPath(`${name}-${width}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(`${name}-${width}`, { path, contentType: "image/png" });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Where the text of `element` goes onto a new line, as the browser laid it out (from each
 * character's box): each break as the offset in the element's text of the first character on the
 * new line, and the characters either side of it, spaces left out ("@|e").
 */
export function lineBreaksIn(element: Locator): Promise<{ at: number; around: string }[]> {
  return element.evaluate((el) => {
    const breaks: { at: number; around: string }[] = [];
    let top: number | null = null;
    let last = "";
    let offset = 0;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (let i = 0; i < text.length; i++, offset++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getClientRects()[0];
        if (!box || !text[i]!.trim()) continue;
        if (top !== null && box.top > top + 2) breaks.push({ at: offset, around: `${last}|${text[i]}` });
        top = box.top;
        last = text[i]!;
      }
    }
    return breaks;
  });
}
