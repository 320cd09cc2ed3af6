// Article-like HTML pages for the audit benchmark, the same bytes on every run: a header and nav,
// a breadcrumb, an article (headings, paragraphs with links, lists, tables, figures, quotes, code)
// and an aside and footer, with the head a real CMS writes (meta, Open Graph, JSON-LD, a style
// sheet, an analytics snippet) and, as framework pages carry, a serialised state script (a fifth
// of the bytes). Grown section by section to the size asked for.

/** The five pages the audit is compared on, by size. */
export const PAGE_SIZES = [
  { name: "10k", bytes: 10 * 1024 },
  { name: "50k", bytes: 50 * 1024 },
  { name: "200k", bytes: 200 * 1024 },
  { name: "500k", bytes: 500 * 1024 },
  { name: "1m", bytes: 1024 * 1024 },
] as const;

/** The site's robots.txt: everyone in but for /admin/, GPTBot kept off drafts, CCBot off everything. */
export const robotsTxt = (origin: string) => [
  "User-agent: *",
  "Allow: /",
  "Disallow: /admin/",
  "",
  "User-agent: GPTBot",
  "Disallow: /drafts/",
  "",
  "User-agent: CCBot",
  "Disallow: /",
  "",
  `Sitemap: ${origin}/sitemap.xml`,
  "",
].join("\n");

export const LLMS_TXT = [
  "# Fieldnotes",
  "",
  "> Long-form articles on running a small software business.",
  "",
  "## Articles",
  "",
  ...PAGE_SIZES.map((s) => `- [Article ${s.name}](/blog/article-${s.name}): a ${s.name} article`),
  "",
].join("\n");

/** A 1×1 transparent PNG, for the article's images (Chrome loads them). */
export const PIXEL_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
export const APP_JS = "document.documentElement.classList.add('js');\n";

const WORDS = (
  "the a of to and in for is on that with as by this it be are from or at an your can more we our not have which will " +
  "pricing customer product team software revenue churn onboarding support invoice subscription trial market growth " +
  "analytics dashboard metric funnel conversion retention feature roadmap release deploy database server latency " +
  "cache query index schema migration backup incident review hiring contract budget forecast quarter margin cost " +
  "search engine answer citation source page content structure heading paragraph summary example guide checklist " +
  "first second simple clear practical small large fast slow common useful careful honest early late weekly monthly " +
  "build measure learn ship test write read plan price sell explain compare choose keep remove improve start"
).split(" ");
const TOPICS = ["Pricing", "Onboarding", "Retention", "Support", "Analytics", "Hiring", "Infrastructure", "Roadmaps", "Billing", "Search"];

/** mulberry32: small, fast, the same sequence for the same seed everywhere. */
function rngFrom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An article of about `bytes` bytes (a few hundred over at most) at `origin` + `path`, its canonical URL. */
export function articleHtml(origin: string, path: string, bytes: number, seed: number): string {
  const rnd = rngFrom(seed);
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const sentence = () => `${cap(words(int(8, 22)))}.`;
  const paragraph = () => {
    const parts: string[] = [];
    for (let s = int(3, 6); s > 0; s--) {
      const r = rnd();
      if (r < 0.2) parts.push(`${cap(words(int(3, 8)))} <a href="/blog/${words(2).replace(/ /g, "-")}">${words(int(2, 4))}</a> ${words(int(4, 10))}.`);
      else if (r < 0.3) parts.push(`${cap(words(int(3, 8)))} <strong>${words(int(1, 3))}</strong> ${words(int(4, 10))}.`);
      else if (r < 0.35) parts.push(`${cap(words(int(3, 8)))} <a href="https://docs.example.org/${pick(WORDS)}" rel="noopener">${words(2)}</a> <em>${words(2)}</em>.`);
      else parts.push(sentence());
    }
    return `<p>${parts.join(" ")}</p>`;
  };
  const topic = TOPICS[seed % TOPICS.length]!;
  const title = `${topic}: ${cap(words(6))}`;
  const description = `${cap(words(22))}.`;
  const url = `${origin}${path}`;
  const published = new Date(Date.UTC(2025, seed % 12, 1 + (seed % 27))).toISOString();
  const modified = new Date(Date.UTC(2026, seed % 5, 1 + (seed % 27))).toISOString();

  const jsonLd = JSON.stringify({
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "Article",
        headline: title,
        description,
        datePublished: published,
        dateModified: modified,
        author: { "@type": "Person", name: "Dana Okafor", url: "https://fieldnotes.example/authors/dana" },
        publisher: { "@type": "Organization", name: "Fieldnotes", logo: { "@type": "ImageObject", url: "https://fieldnotes.example/logo.png" } },
        mainEntityOfPage: url,
        image: `https://fieldnotes.example/img/${seed}-cover.png`,
      },
      {
        "@type": "BreadcrumbList",
        itemListElement: [
          { "@type": "ListItem", position: 1, name: "Home", item: "https://fieldnotes.example/" },
          { "@type": "ListItem", position: 2, name: topic, item: `https://fieldnotes.example/topics/${topic.toLowerCase()}` },
          { "@type": "ListItem", position: 3, name: title },
        ],
      },
    ],
  });
  const css = Array.from({ length: Math.max(20, Math.floor(bytes / 1500)) }, (_, i) => `.c${i}-${pick(WORDS)}{margin:${int(0, 24)}px ${int(0, 24)}px;color:#${int(0, 0xffffff).toString(16).padStart(6, "0")};font-size:${int(12, 22)}px}`).join("\n");
  const navLinks = ["Home", ...TOPICS.slice(0, 7), "About"].map((t) => `<li><a href="/topics/${t.toLowerCase()}">${t}</a></li>`).join("");
  const head = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<link rel="canonical" href="${url}">
<meta name="robots" content="index, follow, max-image-preview:large">
<meta property="og:type" content="article">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${url}">
<meta property="og:image" content="https://fieldnotes.example/img/${seed}-cover.png">
<meta property="article:published_time" content="${published}">
<meta property="article:modified_time" content="${modified}">
<meta name="twitter:card" content="summary_large_image">
<link rel="icon" href="/favicon.png">
<script type="application/ld+json">${jsonLd}</script>
<style>
body{font-family:system-ui,sans-serif;line-height:1.6;margin:0}header,footer{padding:1rem 2rem;background:#f4f4f4}main{max-width:46rem;margin:0 auto;padding:1rem}
${css}
</style>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','G-BENCH0001');</script>
<script src="/static/app.js" defer></script>
</head>
<body>
<header class="site-header"><a href="/" class="logo">Fieldnotes</a><nav aria-label="Main"><ul>${navLinks}</ul></nav><form action="/search" role="search"><input type="search" name="q" aria-label="Search"></form></header>
<nav aria-label="Breadcrumb" class="breadcrumb"><a href="/">Home</a> › <a href="/topics/${topic.toLowerCase()}">${topic}</a></nav>
<main id="content">
<article>
<h1>${title}</h1>
<p class="byline">By <a href="/authors/dana" rel="author">Dana Okafor</a> · <time datetime="${published}">${published.slice(0, 10)}</time> · updated <time datetime="${modified}">${modified.slice(0, 10)}</time></p>
<p class="lede"><strong>${description}</strong></p>
`;

  const stateBytes = Math.floor(bytes / 5);
  const related = Array.from({ length: 6 }, (_, i) => `<li><a href="/blog/related-${seed}-${i}">${cap(words(5))}</a></li>`).join("");
  const footerLinks = ["Privacy", "Terms", "Contact", "Careers", "RSS", "Sitemap"].map((t) => `<a href="/${t.toLowerCase()}">${t}</a>`).join(" · ");
  const tail = (state: string) => `</article>
<aside class="related"><h2>Related articles</h2><ul>${related}</ul></aside>
</main>
<footer class="site-footer"><nav aria-label="Footer">${footerLinks}</nav><p>© 2026 Fieldnotes. ${sentence()}</p></footer>
<script id="__STATE__" type="application/json">${state}</script>
<script>document.querySelectorAll('a[href^="https://"]').forEach(function(a){a.target="_blank"})</script>
</body>
</html>
`;

  const sections: string[] = [];
  let size = head.length + 2000;
  let section = 0;
  while (size < bytes - stateBytes) {
    section++;
    const parts = [`<section id="s${section}">`, `<h2>${cap(words(int(3, 7)))}</h2>`];
    for (let p = int(2, 4); p > 0; p--) parts.push(paragraph());
    const r = rnd();
    if (r < 0.25) parts.push(`<ul>${Array.from({ length: int(3, 7) }, () => `<li>${cap(words(int(4, 12)))}</li>`).join("")}</ul>`);
    else if (r < 0.4) parts.push(`<ol>${Array.from({ length: int(3, 6) }, () => `<li>${cap(words(int(5, 14)))}</li>`).join("")}</ol>`);
    else if (r < 0.55) {
      const cols = int(3, 5);
      const headRow = `<tr>${Array.from({ length: cols }, () => `<th>${cap(pick(WORDS))}</th>`).join("")}</tr>`;
      const rows = Array.from({ length: int(4, 9) }, () => `<tr>${Array.from({ length: cols }, (_, c) => `<td>${c === 0 ? cap(words(2)) : int(1, 9999)}</td>`).join("")}</tr>`).join("");
      parts.push(`<table><caption>${cap(words(5))}</caption><thead>${headRow}</thead><tbody>${rows}</tbody></table>`);
    } else if (r < 0.65) parts.push(`<figure><img src="/img/${seed}-${section}.png" alt="${cap(words(5))}" width="640" height="360" loading="lazy"><figcaption>${cap(words(8))}</figcaption></figure>`);
    else if (r < 0.72) parts.push(`<blockquote><p>${sentence()} ${sentence()}</p><cite>${cap(words(2))}</cite></blockquote>`);
    else if (r < 0.8) parts.push(`<pre><code class="language-sql">SELECT ${pick(WORDS)}, count(*) FROM ${pick(WORDS)}s\nWHERE created_at &gt; now() - interval '${int(1, 90)} days'\nGROUP BY 1 ORDER BY 2 DESC;</code></pre>`);
    if (rnd() < 0.4) {
      parts.push(`<h3>${cap(words(int(3, 6)))}</h3>`);
      for (let p = int(1, 3); p > 0; p--) parts.push(paragraph());
    }
    parts.push("</section>");
    const html = parts.join("\n");
    sections.push(html);
    size += html.length;
  }
  const body = head + sections.join("\n");
  // The state script: records until the page is `bytes` long (every character here is ASCII).
  const records: string[] = [];
  let stateSize = body.length + tail("").length + 20;
  for (let i = 0; stateSize < bytes; i++) {
    const record = JSON.stringify({ id: `${seed}-${i}`, slug: words(3).replace(/ /g, "-"), title: cap(words(6)), views: int(0, 99999), tags: [pick(WORDS), pick(WORDS)] });
    records.push(record);
    stateSize += record.length + 1;
  }
  return body + tail(`{"props":{"page":"${path}","related":[${records.join(",")}]}}`);
}
