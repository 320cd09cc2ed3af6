// The finding catalog (decisions.md "Audits") as data: its order is the order of every audit's
// findings, and the names and texts here are what a person reads. Checks live per category.
import type { EVIDENCE_LEVELS, FINDING_CATEGORIES, FINDING_SEVERITIES } from "@/lib/schemas/audits";

export type CatalogEntry = {
  key: string;
  category: (typeof FINDING_CATEGORIES)[number];
  /** How much it matters when it fails. */
  severity: (typeof FINDING_SEVERITIES)[number];
  evidence_level: (typeof EVIDENCE_LEVELS)[number];
  name: string;
  why_it_matters: string;
  recommendation: string;
};

/** Every finding is version 1 until its rule changes. */
export const FINDING_VERSION = 1;

export const FINDING_CATALOG = [
  // access
  {
    key: "http_error",
    category: "access",
    severity: "critical",
    evidence_level: "observed",
    name: "Page could not be loaded",
    why_it_matters:
      "An answer engine that gets an error instead of the page (or no answer at all) cannot read or cite it, and search indexes drop pages that keep failing.",
    recommendation:
      "Make the address answer with the page and a 200 status: fix the error, or send visitors of a moved page to its new address with a single 301 redirect.",
  },
  {
    key: "robots_blocks_page",
    category: "access",
    severity: "critical",
    evidence_level: "observed",
    name: "robots.txt blocks this page",
    why_it_matters:
      "robots.txt is the file where a site tells crawlers what they may read; it forbids this page to the audit's crawler, which usually means a rule for all crawlers shuts answer engines out too.",
    recommendation:
      "If you want the page found and cited, remove or narrow the Disallow line in /robots.txt that matches it (the evidence shows which line).",
  },
  {
    key: "ai_crawlers_blocked",
    category: "access",
    severity: "high",
    evidence_level: "observed",
    name: "AI crawlers blocked by robots.txt",
    why_it_matters:
      "ChatGPT, Claude, Perplexity and others send their own crawlers, each following its own rules in robots.txt; a blocked search or user-request crawler (such as OAI-SearchBot or Claude-User) means that engine cannot read the page to cite it, while blocking a training crawler (such as GPTBot) only keeps the page out of model training.",
    recommendation:
      "Allow the search and user-request crawlers of every engine you want to be cited by; blocking training crawlers is a separate choice you can keep.",
  },
  {
    key: "long_redirect_chain",
    category: "access",
    severity: "medium",
    evidence_level: "observed",
    name: "Long redirect chain",
    why_it_matters:
      "Each redirect is one more round trip before the page loads, and some crawlers stop following after a few, so the page can be missed or read late.",
    recommendation: "Point links and the first redirect straight at the final address, so any old address takes one hop at most.",
  },
  {
    key: "non_html",
    category: "access",
    severity: "high",
    evidence_level: "observed",
    name: "Not an HTML page",
    why_it_matters:
      "The address serves something other than a web page (for example a PDF, an image or JSON), so answer engines get no title, headings or description from it and this audit cannot check its content.",
    recommendation:
      "If this should be a web page, make the server send it as HTML (Content-Type: text/html); if it is a file on purpose, link it from a web page that describes it.",
  },
  {
    key: "truncated_body",
    category: "access",
    severity: "low",
    evidence_level: "observed",
    name: "Page larger than 5 MiB",
    why_it_matters:
      "Crawlers stop reading very large pages after a limit (this audit read the first 5 MiB), so content near the end may never be seen.",
    recommendation: "Slim the HTML down: move inline images, data and scripts into separate files, and split very long pages.",
  },
  {
    key: "slow_response",
    category: "access",
    severity: "medium",
    evidence_level: "observed",
    name: "Slow response",
    why_it_matters:
      "Answer engines often fetch pages while a person waits for the answer and give up on slow ones, so a page that takes more than 3 seconds can be passed over for a faster source.",
    recommendation: "Make the page arrive in under 3 seconds: cache it (for example behind a CDN), remove redirects and speed up the server's response.",
  },
  // indexing
  {
    key: "noindex",
    category: "indexing",
    severity: "critical",
    evidence_level: "observed",
    name: "Page asks not to be indexed",
    why_it_matters:
      "A noindex instruction (in the robots meta tag or the X-Robots-Tag header) tells search engines to leave the page out of their index, and AI search built on those indexes then cannot find it.",
    recommendation: "Remove noindex from the page's robots meta tag and X-Robots-Tag header, unless you really want the page kept out of search and AI answers.",
  },
  {
    key: "nofollow",
    category: "indexing",
    severity: "low",
    evidence_level: "observed",
    name: "Links marked nofollow",
    why_it_matters: "A page-wide nofollow tells crawlers not to follow any link on the page, so the pages it links to are found and credited less.",
    recommendation: "Remove nofollow from the robots meta tag and X-Robots-Tag header; where a single link should not be followed, mark that link rel=\"nofollow\".",
  },
  {
    key: "canonical_missing",
    category: "indexing",
    severity: "low",
    evidence_level: "observed",
    name: "No canonical URL",
    why_it_matters:
      "A canonical link tells engines which address is the main one when the same page can be reached at several (with tracking parameters, with or without www), so they do not split or mix up its copies.",
    recommendation: "Add <link rel=\"canonical\" href=\"…\"> to the page's <head> with the page's full preferred address.",
  },
  {
    key: "canonical_elsewhere",
    category: "indexing",
    severity: "medium",
    evidence_level: "observed",
    name: "Canonical points to another URL",
    why_it_matters: "The page says its main version lives at another address, so search and answer engines will usually index and cite that address instead of this one.",
    recommendation:
      "If this page is the one you want cited, make its canonical link name exactly the address it is served at; if the other address is the right one, link to that instead.",
  },
  {
    key: "canonical_invalid",
    category: "indexing",
    severity: "medium",
    evidence_level: "observed",
    name: "Invalid canonical URL",
    why_it_matters: "Engines ignore a canonical link they cannot use (a relative path, an address that is not a web address, a typo), so it no longer names the main address.",
    recommendation: "Write the canonical as one full address starting with https://, exactly as the page is served, and keep a single canonical link on the page.",
  },
  // content
  {
    key: "likely_js_dependent",
    category: "content",
    severity: "high",
    evidence_level: "heuristic",
    name: "Content needs JavaScript",
    why_it_matters:
      "Most AI crawlers read the HTML the server sends and do not run JavaScript, so text that only appears once scripts have run is invisible to them.",
    recommendation: "Have the server send the main content in the HTML (server-side rendering or static generation); “View page source” in a browser shows what crawlers get.",
  },
  {
    key: "no_main_content",
    category: "content",
    severity: "high",
    evidence_level: "heuristic",
    name: "No main content found",
    why_it_matters: "Answer engines quote a page's main text; when none can be found in the HTML, there is nothing for them to read or cite.",
    recommendation: "Put the page's text in the HTML inside a <main> or <article> element, apart from menus and footers.",
  },
  {
    key: "thin_content",
    category: "content",
    severity: "medium",
    evidence_level: "heuristic",
    name: "Thin content",
    why_it_matters:
      "With under 300 words a page rarely answers a question fully, and answer engines prefer sources that explain with specifics, figures and examples.",
    recommendation: "Add what your readers ask about (definitions, steps, numbers, comparisons, examples), or merge the page with a related one.",
  },
  {
    key: "no_dates",
    category: "content",
    severity: "low",
    evidence_level: "observed",
    name: "No publication or update date",
    why_it_matters: "Answer engines favour fresh sources for many questions and judge freshness by dates; a page without any date gives them nothing to go on.",
    recommendation:
      "Show when the page was published and last updated, and state it in the metadata too (article:published_time and article:modified_time, or datePublished and dateModified in JSON-LD).",
  },
  {
    key: "stale_content",
    category: "content",
    severity: "low",
    evidence_level: "observed",
    name: "Not updated in over a year",
    why_it_matters:
      "For questions where things change (prices, tools, rules), answer engines lean towards recently updated sources, and an old date makes the page look out of date.",
    recommendation: "Review the page, bring what has changed up to date and update its modified date when you do; changing the date alone does not count.",
  },
  // structure
  {
    key: "missing_h1",
    category: "structure",
    severity: "high",
    evidence_level: "observed",
    name: "No h1 heading",
    why_it_matters: "The h1 is the page's main heading; answer engines and search engines read it, with the title, to understand what the page is about.",
    recommendation: "Give the page one h1 that says its topic in plain words.",
  },
  {
    key: "multiple_h1",
    category: "structure",
    severity: "low",
    evidence_level: "observed",
    name: "Several h1 headings",
    why_it_matters: "More than one h1 blurs what the page's main topic is, for readers and for the engines that outline the page.",
    recommendation: "Keep one h1 for the page's topic and turn the others into h2 headings.",
  },
  {
    key: "heading_level_skips",
    category: "structure",
    severity: "low",
    evidence_level: "observed",
    name: "Heading levels skip",
    why_it_matters:
      "Answer engines read headings as the page's outline; a jump from h2 to h4 makes a section look like it belongs somewhere it does not.",
    recommendation: "Use the next level down for each subsection (h2, then h3), styling it as you like.",
  },
  {
    key: "no_subheadings",
    category: "structure",
    severity: "medium",
    evidence_level: "heuristic",
    name: "Long text without subheadings",
    why_it_matters:
      "Answer engines pick out the passage that answers a question; a long page without h2 or h3 headings is one undivided block, harder to find that passage in and to quote.",
    recommendation: "Break the text into sections with h2 (and h3) headings, ideally worded as the questions the sections answer.",
  },
  // metadata
  {
    key: "missing_title",
    category: "metadata",
    severity: "high",
    evidence_level: "observed",
    name: "No page title",
    why_it_matters: "The title (the <title> tag) is what search results and AI answers show when they list or cite the page; without one they make one up or show the bare address.",
    recommendation: "Add a <title> that names the page's topic and your brand, in 15 to 65 characters.",
  },
  {
    key: "title_length",
    category: "metadata",
    severity: "low",
    evidence_level: "observed",
    name: "Title too short or too long",
    why_it_matters: "A title under 15 characters says too little to pick the page from a list, and one over 65 gets cut off in search results and citations.",
    recommendation: "Rewrite the title in 15 to 65 characters, the main topic first.",
  },
  {
    key: "missing_description",
    category: "metadata",
    severity: "medium",
    evidence_level: "observed",
    name: "No meta description",
    why_it_matters:
      "The meta description is the short summary that search results, link previews and some AI tools show for the page; without it they pick a snippet themselves.",
    recommendation: "Add <meta name=\"description\" content=\"…\"> summing up the page in one or two sentences (50 to 160 characters).",
  },
  {
    key: "description_length",
    category: "metadata",
    severity: "low",
    evidence_level: "observed",
    name: "Description too short or too long",
    why_it_matters: "A description under 50 characters says too little about the page, and one over 160 gets cut off where it is shown.",
    recommendation: "Rewrite the description in 50 to 160 characters: what the page offers, and for whom.",
  },
  {
    key: "missing_lang",
    category: "metadata",
    severity: "low",
    evidence_level: "observed",
    name: "No page language",
    why_it_matters: "The lang attribute tells engines which language the page is written in, so they can offer it to people asking in that language.",
    recommendation: "Set the language on the page's html element, for example <html lang=\"en\">.",
  },
  {
    key: "missing_open_graph",
    category: "metadata",
    severity: "low",
    evidence_level: "observed",
    name: "No Open Graph tags",
    why_it_matters:
      "Open Graph tags (og:title, og:description, og:image) decide how the page looks when its link is shared in chats, social networks and some AI tools; without them the preview is guessed.",
    recommendation: "Add og:title, og:description and og:image meta tags to the page's <head>.",
  },
  // structured_data
  {
    key: "no_structured_data",
    category: "structured_data",
    severity: "medium",
    evidence_level: "observed",
    name: "No structured data",
    why_it_matters:
      "Structured data (a JSON-LD block using the schema.org vocabulary) states plainly what the page is (an article, a product, an FAQ) and its key facts, so engines do not have to guess.",
    recommendation: "Add a JSON-LD block with the schema.org type that fits the page (Article, Product, FAQPage, Organization…) and its main facts.",
  },
  {
    key: "structured_data_errors",
    category: "structured_data",
    severity: "medium",
    evidence_level: "observed",
    name: "Broken structured data",
    why_it_matters: "A JSON-LD block that is not valid JSON is ignored as a whole, so every fact it was meant to state is lost.",
    recommendation:
      "Fix the broken block (often a trailing comma or an unescaped quote) and check the page with validator.schema.org or Google's Rich Results Test.",
  },
  {
    key: "no_author_or_publisher",
    category: "structured_data",
    severity: "low",
    evidence_level: "heuristic",
    name: "No author or publisher named",
    why_it_matters: "Answer engines weigh who stands behind a page; naming the author and the publishing organisation in structured data tells them plainly.",
    recommendation: "Add author (a Person with a name and a profile link) and publisher (your Organization) to the page's JSON-LD.",
  },
  // ai_access
  {
    key: "llms_txt_missing",
    category: "ai_access",
    severity: "info",
    evidence_level: "observed",
    name: "No llms.txt",
    why_it_matters:
      "Some AI tools look for /llms.txt, a short markdown guide to a site's most useful pages; it is a young proposal that the big answer engines do not promise to read.",
    recommendation: "Consider publishing /llms.txt listing the pages you most want AI tools to read.",
  },
  {
    key: "llms_txt_invalid",
    category: "ai_access",
    severity: "low",
    evidence_level: "observed",
    name: "llms.txt lists no links",
    why_it_matters: "An llms.txt is meant to point AI tools to a site's key pages with markdown links; one without links gives them nowhere to go.",
    recommendation: "Start the file with a “# Site name” line and a one-line summary, then list key pages as markdown links: “- [Pricing](https://…): what it covers”.",
  },
  {
    key: "no_markdown_alternate",
    category: "ai_access",
    severity: "info",
    evidence_level: "observed",
    name: "No markdown version",
    why_it_matters:
      "Some AI tools and agents read a plain markdown copy of a page (linked with rel=\"alternate\" type=\"text/markdown\", or at the page's address plus .md) more reliably than its HTML.",
    recommendation: "Consider serving a markdown version of your key pages and linking it from each page's <head>.",
  },
] as const satisfies readonly CatalogEntry[];

export type FindingKey = (typeof FINDING_CATALOG)[number]["key"];
