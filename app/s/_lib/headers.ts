// The headers every share response carries (decisions.md "Sharing"); next.config.mjs sends the same
// on the pages, whose responses Next.js writes itself.
export const SHARE_HEADERS = {
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
} as const;
