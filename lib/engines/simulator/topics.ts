// What a simulated answer is about: a keyword classifier from a prompt to a domain, and per domain
// the sites an engine would find, the searches it would run and the sentences it would write, so a
// newcomer's first simulated run reads like an answer to their prompt.

export type DomainId = "tech" | "business" | "finance" | "health" | "travel" | "food" | "products" | "education" | "general";

/** The prompt's words as templates use them. */
export interface TopicWords {
  /** The prompt without magic tokens or final punctuation: "how much water should I drink a day". */
  topic: string;
  /** The domain keyword the prompt is about, in display form: "CRM", "Rust", "flights". */
  focus: string;
  slug: string;
  focusSlug: string;
}

export interface Site {
  /** A function where the host depends on the topic (a technology's own documentation). */
  host: string | ((w: TopicWords) => string);
  /** `n` varies per page and per repeat, so ids in paths differ across runs. */
  path: (w: TopicWords, n: number) => string;
  title: (w: TopicWords) => string;
}

type Template = (w: TopicWords) => string;

export interface Domain {
  id: DomainId;
  /** A prompt is in this domain only if one of these is in it; the earliest one is its focus. */
  keywords: string[];
  /** Words that add weight to a domain but are too broad to be what the answer is about. */
  hints: string[];
  /** Products read as plurals in titles and sentences: "The Best Laptops", "last year's laptops". */
  pluralFocus?: boolean;
  /** What the sites are, for the answer's opening line. */
  sources: string;
  sites: Site[];
  queries: Template[];
  body: Template[];
  closers: Template[];
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "running shoes" → "Running Shoes"; "CRM" stays "CRM". */
export function titleCase(text: string): string {
  return text.replace(/(^|[\s-])(\p{Ll})/gu, (_, lead: string, letter: string) => (lead === "-" ? `-${letter}` : `${lead}${letter.toUpperCase()}`));
}

export function slugOf(text: string): string {
  const ascii = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (ascii !== "") return ascii.slice(0, 60);
  // A prompt in another script gets the percent-encoded path real sites give it.
  const words = Array.from(text.trim().replace(/\s+/g, "-")).slice(0, 20).join("");
  return words === "" ? "topic" : encodeURIComponent(words);
}

function plural(word: string): string {
  if (/ss$|x$|ch$|sh$/i.test(word)) return `${word}es`;
  return /s$/i.test(word) ? word : `${word}s`;
}

// Small helpers for paths and titles that recur across domains.
const F = (w: TopicWords) => titleCase(w.focus);
const T = (w: TopicWords) => capitalise(w.topic);
const f = (w: TopicWords) => w.focus.toLowerCase();
const q = (w: TopicWords) => w.topic.toLowerCase();
const underscored = (w: TopicWords) => capitalise(w.slug).replace(/-/g, "_");
const hyphenTitle = (w: TopicWords) => w.slug.split("-").map(capitalise).join("-");
const day = (n: number) => String(((n * 7) % 27) + 1).padStart(2, "0");
const id36 = (n: number, times: number) => (n * times).toString(36);
const videoId = (n: number) => (n * 999331).toString(36).padEnd(11, "x").slice(0, 11);

function reddit(sub: string | ((w: TopicWords) => string)): Site {
  const name = (w: TopicWords) => (typeof sub === "string" ? sub : sub(w));
  return {
    host: "www.reddit.com",
    path: (w, n) => `/r/${name(w)}/comments/${id36(n, 7919)}/${w.slug.replace(/-/g, "_")}/`,
    title: (w) => `${T(w)}? : r/${name(w)}`,
  };
}

function youtube(title: Template): Site {
  return { host: "www.youtube.com", path: (w, n) => `/watch?v=${videoId(n)}&t=${(n * 37) % 600}s`, title: (w) => `${title(w)} - YouTube` };
}

// Official documentation and community per technology; anything else gets DevDocs and r/programming.
const TECH_HOMES: Record<string, { host: string; path: string; title: string; subreddit: string }> = {
  rust: { host: "doc.rust-lang.org", path: "/book/", title: "The Rust Programming Language - The Rust Programming Language", subreddit: "rust" },
  python: { host: "docs.python.org", path: "/3/tutorial/index.html", title: "The Python Tutorial — Python 3.13 documentation", subreddit: "Python" },
  javascript: { host: "developer.mozilla.org", path: "/en-US/docs/Web/JavaScript/Guide", title: "JavaScript Guide - JavaScript | MDN", subreddit: "javascript" },
  typescript: { host: "www.typescriptlang.org", path: "/docs/handbook/intro.html", title: "TypeScript: Handbook - The TypeScript Handbook", subreddit: "typescript" },
  react: { host: "react.dev", path: "/learn", title: "Quick Start – React", subreddit: "reactjs" },
  postgres: { host: "www.postgresql.org", path: "/docs/current/tutorial.html", title: "PostgreSQL: Documentation: Tutorial", subreddit: "PostgreSQL" },
  postgresql: { host: "www.postgresql.org", path: "/docs/current/tutorial.html", title: "PostgreSQL: Documentation: Tutorial", subreddit: "PostgreSQL" },
  docker: { host: "docs.docker.com", path: "/get-started/", title: "Get started | Docker Docs", subreddit: "docker" },
  kubernetes: { host: "kubernetes.io", path: "/docs/tutorials/", title: "Tutorials | Kubernetes", subreddit: "kubernetes" },
  golang: { host: "go.dev", path: "/doc/tutorial/getting-started", title: "Tutorial: Get started with Go - The Go Programming Language", subreddit: "golang" },
};
const techHome = (w: TopicWords) => TECH_HOMES[f(w)];

const TECH: Domain = {
  id: "tech",
  keywords: [
    "Rust", "Python", "JavaScript", "TypeScript", "Java", "Golang", "Kotlin", "React", "Node.js", "SQL", "PostgreSQL", "Postgres",
    "MySQL", "SQLite", "Docker", "Kubernetes", "Linux", "Git", "API", "database", "algorithm", "compiler", "machine learning",
    "web development", "cloud", "AWS", "programming language", "WebAssembly", "regex",
  ],
  hints: ["programming", "code", "coding", "developer", "programmer", "debug", "framework", "library", "open source", "server", "analytics"],
  sources: "official documentation, developer forums and tutorials",
  sites: [
    {
      host: (w) => techHome(w)?.host ?? "devdocs.io",
      path: (w) => techHome(w)?.path ?? `/${w.focusSlug}/`,
      title: (w) => techHome(w)?.title ?? `${F(w)} documentation — DevDocs`,
    },
    { host: "stackoverflow.com", path: (w, n) => `/questions/${70000000 + n * 7919}/${w.slug}`, title: (w) => `${T(w)} - Stack Overflow` },
    reddit((w) => techHome(w)?.subreddit ?? "programming"),
    { host: "dev.to", path: (w, n) => `/devnotes/${w.slug}-${id36(n, 31337).slice(0, 4)}`, title: (w) => `${T(w)} - DEV Community` },
    { host: "github.com", path: (w) => `/topics/${w.focusSlug}`, title: (w) => `${w.focusSlug} · GitHub Topics · GitHub` },
    { host: "news.ycombinator.com", path: (_, n) => `/item?id=${43000000 + n * 7919}`, title: (w) => `${F(w)} in 2026: what has changed? | Hacker News` },
    { host: "www.freecodecamp.org", path: (w) => `/news/${w.slug}/`, title: (w) => `${T(w)} – A Handbook for Beginners` },
    youtube((w) => `${F(w)} Full Course for Beginners`),
    { host: "www.geeksforgeeks.org", path: (w) => `/${w.slug}/`, title: (w) => `${T(w)} - GeeksforGeeks` },
    { host: "medium.com", path: (w, n) => `/@engineer/${w.slug}-${(n * 31337).toString(16)}`, title: (w) => `What a year of ${F(w)} taught me | Medium` },
    { host: "www.infoq.com", path: (w) => `/articles/${w.focusSlug}-in-production/`, title: (w) => `${F(w)} in Production: Lessons Learned - InfoQ` },
  ],
  queries: [q, (w) => `${f(w)} tutorial for beginners`, (w) => `${f(w)} documentation`, (w) => `${f(w)} best practices 2026`, (w) => `${f(w)} reddit`, (w) => `learn ${f(w)} fast`, (w) => `${f(w)} common mistakes`],
  body: [
    (w) => `The official ${w.focus} documentation is the usual starting point, and most guides suggest working through it before reaching for video courses.`,
    (w) => `Developers on forums stress building small projects early: reading about ${w.focus} only goes so far until you hit real errors.`,
    (w) => `Stack Overflow answers on ${w.focus} are plentiful, but check their dates, since idioms and APIs have changed in recent versions.`,
    (w) => `Expect a few weeks for the basics and a few months before ${w.focus} feels productive on real work.`,
    (w) => `Developer surveys in 2025 again ranked ${w.focus} among the most admired technologies, which explains the steady stream of new tutorials.`,
    (w) => `Reading an open-source project on GitHub is a common way to see idiomatic ${w.focus} in practice.`,
  ],
  closers: [
    (w) => `In short, start with the official docs, build something small with ${w.focus}, and lean on the community when you get stuck.`,
    (w) => `Overall, consistency matters more than the resource you pick: a little ${w.focus} every day beats an occasional marathon.`,
  ],
};

const BUSINESS: Domain = {
  id: "business",
  keywords: [
    "CRM", "ERP", "SaaS", "invoicing", "payroll", "project management", "accounting", "bookkeeping", "email marketing",
    "marketing automation", "helpdesk", "help desk", "customer support", "sales pipeline", "lead generation", "B2B", "SEO", "OKR",
    "HR", "applicant tracking", "e-commerce platform",
  ],
  hints: ["startup", "small business", "business", "company", "team", "founder", "sales", "marketing", "software", "tool", "customers", "agency", "freelancer"],
  sources: "software review sites, vendor guides and founder forums",
  sites: [
    { host: "www.g2.com", path: (w) => `/categories/${w.focusSlug}`, title: (w) => `Best ${F(w)} Software in 2026: Compare Reviews | G2` },
    { host: "www.capterra.com", path: (w) => `/${w.focusSlug}-software/`, title: (w) => `Best ${F(w)} Software 2026 - Reviews & Pricing | Capterra` },
    { host: "blog.hubspot.com", path: (w) => `/sales/${w.slug}`, title: (w) => `${F(w)} for Startups: The Ultimate Guide` },
    { host: "zapier.com", path: (w) => `/blog/best-${w.focusSlug}-app/`, title: (w) => `The best ${w.focus} apps in 2026 | Zapier` },
    reddit("startups"),
    { host: "techcrunch.com", path: (w, n) => `/2026/02/${day(n)}/${w.slug}/`, title: (w) => `Startups are rethinking how they pick ${w.focus} tools | TechCrunch` },
    { host: "www.forbes.com", path: (w) => `/advisor/business/software/best-${w.focusSlug}-software/`, title: (w) => `Best ${F(w)} Software Of 2026 – Forbes Advisor` },
    {
      host: "www.zoho.com",
      path: (w) => `/${w.focusSlug}/compare/?utm_source=comparison&utm_medium=search`,
      title: (w) => `${F(w)} comparison: how the leading tools stack up | Zoho`,
    },
    { host: "www.businessnewsdaily.com", path: (w, n) => `/${1000 + ((n * 1117) % 9000)}-${w.slug}.html`, title: (w) => `${T(w)}: What Small Businesses Need to Know` },
    { host: "news.ycombinator.com", path: (_, n) => `/item?id=${43000000 + n * 7919}`, title: (w) => `Ask HN: ${T(w)}? | Hacker News` },
    { host: "www.pcmag.com", path: (w) => `/picks/the-best-${w.focusSlug}-software`, title: (w) => `The Best ${F(w)} Software for 2026 | PCMag` },
  ],
  queries: [q, (w) => `best ${f(w)} software for startups 2026`, (w) => `${f(w)} pricing comparison`, (w) => `${f(w)} reviews g2 capterra`, (w) => `${f(w)} for small teams reddit`, (w) => `free ${f(w)} vs paid`, (w) => `${f(w)} setup tips`],
  body: [
    (w) => `Review sites rank ${w.focus} tools mainly on ease of setup, integrations and price per seat, and the top few are usually close.`,
    (w) => `For an early-stage team, most guides suggest a ${w.focus} tool with a usable free tier, so you can start without a contract and upgrade as you grow.`,
    (w) => `Founders on forums often regret over-configuring their first ${w.focus} setup; the basics cover most needs in the first year.`,
    () => `Pricing usually runs from free to about $15–$50 per user per month, with automation and reporting held back for the higher tiers.`,
    (w) => `Integrations matter more than feature lists: check that the ${w.focus} tool connects to the email, calendar and billing tools you already use.`,
    () => `Switching later is possible but tedious, so export options and an open API are worth checking up front.`,
    (w) => `Analysts note that the market has consolidated, and several smaller ${w.focus} vendors were acquired in 2025.`,
  ],
  closers: [
    (w) => `In short, shortlist two or three ${w.focus} options with free trials, run your real workflow through each, and keep the one your team actually uses.`,
    (w) => `Overall, keep your first ${w.focus} setup simple and add automation only once the basics are in daily use.`,
  ],
};

const FINANCE: Domain = {
  id: "finance",
  keywords: [
    "mortgage", "loan", "Roth IRA", "IRA", "401k", "credit card", "credit score", "budget", "budgeting", "index fund", "ETF", "stock",
    "bond", "savings account", "high-yield savings", "retirement", "pension", "tax return", "taxes", "crypto", "bitcoin", "insurance",
    "debt", "interest rate", "inflation", "exchange rate", "currency", "euro", "yen", "dollar", "investing",
  ],
  hints: ["money", "finance", "financial", "save", "saving", "bank", "worth it", "salary", "invest"],
  sources: "personal finance sites, financial news and investor forums",
  sites: [
    { host: "www.nerdwallet.com", path: (w) => `/article/finance/${w.slug}`, title: (w) => `${T(w)} - NerdWallet` },
    {
      host: "www.investopedia.com",
      path: (w) => `/terms/${w.focusSlug.charAt(0)}/${w.focusSlug.replace(/-/g, "")}.asp`,
      title: (w) => `${F(w)}: Definition, How It Works, and Examples`,
    },
    { host: "www.bankrate.com", path: (w) => `/${w.focusSlug}/${w.slug}/`, title: (w) => `${T(w)} | Bankrate` },
    reddit("personalfinance"),
    { host: "www.fool.com", path: (w, n) => `/investing/2026/03/${day(n)}/${w.slug}/`, title: (w) => `${T(w)} | The Motley Fool` },
    { host: "www.morningstar.com", path: (w) => `/personal-finance/${w.slug}`, title: (w) => `${T(w)} | Morningstar` },
    { host: "www.cnbc.com", path: (w, n) => `/2026/03/${day(n)}/${w.slug}.html`, title: (w) => `${T(w)}: what experts say - CNBC` },
    { host: "www.forbes.com", path: (w) => `/advisor/${w.focusSlug}/${w.slug}/`, title: (w) => `${T(w)} – Forbes Advisor` },
    { host: "www.consumerfinance.gov", path: (w, n) => `/ask-cfpb/${w.slug}-en-${1000 + n}/`, title: (w) => `${T(w)}? | Consumer Financial Protection Bureau` },
    { host: "www.bogleheads.org", path: (_, n) => `/forum/viewtopic.php?t=${400000 + n * 7919}`, title: (w) => `${T(w)} - Bogleheads.org` },
    { host: "www.thebalancemoney.com", path: (w, n) => `/${w.slug}-${5200000 + n}`, title: (w) => `${T(w)}: Pros and Cons - The Balance` },
  ],
  queries: [q, (w) => `${f(w)} explained`, (w) => `${f(w)} pros and cons`, (w) => `${f(w)} 2026 rates`, (w) => `${f(w)} reddit personal finance`, (w) => `${f(w)} mistakes to avoid`, (w) => `${f(w)} calculator`],
  body: [
    (w) => `Personal finance sites agree that the right ${w.focus} choice depends on your time horizon, your tax situation and how much risk you can stomach.`,
    () => `Fees compound quietly: half a percentage point a year adds up to thousands over a couple of decades.`,
    () => `Rates and limits change every year, so check the 2026 figures rather than relying on older articles.`,
    (w) => `Investor forums repeat the same advice about ${w.focus}: keep it simple, automate what you can and avoid reacting to headlines.`,
    () => `Analysts caution that past returns are not a guide to future ones, especially after the swings of 2025.`,
    () => `Before committing, most guides suggest building an emergency fund and paying down high-interest debt first.`,
  ],
  closers: [
    (w) => `In short, compare ${w.focus} costs, understand the tax treatment, and consider a fee-only adviser for big decisions.`,
    (w) => `This is general information, not financial advice; your own circumstances should drive any ${w.focus} decision.`,
  ],
};

const HEALTH: Domain = {
  id: "health",
  keywords: [
    "water", "hydration", "sleep", "diet", "intermittent fasting", "fasting", "vitamin D", "vitamin", "protein", "exercise", "workout",
    "calories", "weight loss", "blood pressure", "cholesterol", "vaccine", "vaccination", "headache", "migraine", "anxiety", "stress",
    "caffeine", "sugar", "alcohol", "meditation", "posture", "back pain", "nutrition", "supplement", "creatine", "cardio",
  ],
  hints: ["healthy", "health", "drink", "doctor", "symptoms", "pain", "body", "medical", "daily", "a day", "per day"],
  sources: "health sites, public health agencies and clinicians",
  sites: [
    { host: "www.healthline.com", path: (w) => `/health/${w.slug}`, title: (w) => `${T(w)}: What the Research Says` },
    { host: "www.mayoclinic.org", path: (w, n) => `/healthy-lifestyle/${w.focusSlug}/in-depth/${w.focusSlug}/art-2004${n % 10}256`, title: (w) => `${F(w)}: What you need to know - Mayo Clinic` },
    { host: "www.nhs.uk", path: (w) => `/live-well/${w.focusSlug}/`, title: (w) => `${F(w)} - NHS` },
    { host: "www.webmd.com", path: (w) => `/a-to-z-guides/${w.slug}`, title: (w) => `${T(w)}: Facts and Tips - WebMD` },
    { host: "www.health.harvard.edu", path: (w) => `/staying-healthy/${w.slug}`, title: (w) => `${T(w)} - Harvard Health` },
    { host: "my.clevelandclinic.org", path: (w, n) => `/health/articles/${1000 + n * 37}-${w.focusSlug}`, title: (w) => `${F(w)}: What It Is & What to Know` },
    { host: "www.cdc.gov", path: (w) => `/${w.focusSlug}/about/index.html`, title: (w) => `About ${F(w)} | CDC` },
    { host: "medlineplus.gov", path: (w) => `/${w.focusSlug.replace(/-/g, "")}.html`, title: (w) => `${F(w)} | MedlinePlus` },
    { host: "www.verywellhealth.com", path: (w, n) => `/${w.slug}-${8700000 + n}`, title: (w) => `${T(w)}? Here's What Experts Say` },
    reddit("AskDocs"),
    { host: "pubmed.ncbi.nlm.nih.gov", path: (_, n) => `/${38000000 + n * 7919}/`, title: (w) => `${F(w)} and health outcomes: a systematic review - PubMed` },
    { host: "www.who.int", path: (w) => `/news-room/fact-sheets/detail/${w.focusSlug}`, title: (w) => `${F(w)} - World Health Organization (WHO)` },
  ],
  queries: [q, (w) => `${f(w)} guidelines`, (w) => `${f(w)} recommendations nhs`, (w) => `${f(w)} mayo clinic`, (w) => `${f(w)} research 2025`, (w) => `${f(w)} myths`, (w) => `${f(w)} benefits and risks`],
  body: [
    (w) => `Public health bodies give broadly similar guidance on ${w.focus}, and they stress that individual needs vary with age, weight, activity and health conditions.`,
    (w) => `Clinicians quoted in the sources treat the common rules of thumb about ${w.focus} as a reasonable starting point rather than a strict target.`,
    () => `Reviews of the research find real but modest effects, and much of the evidence comes from observational studies rather than trials.`,
    (w) => `Several articles debunk popular ${w.focus} myths from social media, most of which overstate both the risks and the benefits.`,
    () => `Guidance differs for pregnancy, older adults and people with kidney, heart or other chronic conditions.`,
    () => `Most sources agree that small, consistent changes are easier to keep than dramatic ones.`,
  ],
  closers: [
    (w) => `In short, follow the mainstream guidance on ${w.focus}, adjust for your circumstances, and ask a doctor if you have a condition or unusual symptoms.`,
    (w) => `This is general information, not medical advice: check with a clinician before making big changes around ${w.focus}.`,
  ],
};

const TRAVEL: Domain = {
  id: "travel",
  keywords: [
    "travel", "flight", "airfare", "hotel", "hostel", "itinerary", "visa", "passport", "airport", "road trip", "backpacking", "cruise",
    "vacation", "holiday", "travel insurance", "luggage", "carry-on", "jet lag", "rail pass", "Airbnb",
  ],
  hints: ["trip", "visit", "europe", "asia", "japan", "paris", "lisbon", "london", "tokyo", "rome", "weekend", "abroad", "tourist", "things to do", "train"],
  sources: "travel guides, booking sites and traveller forums",
  sites: [
    { host: "www.lonelyplanet.com", path: (w) => `/articles/${w.slug}`, title: (w) => `${T(w)} - Lonely Planet` },
    { host: "www.tripadvisor.com", path: (w, n) => `/ShowTopic-g${180000 + n}-i${n * 7}-${underscored(w)}.html`, title: (w) => `${T(w)} - Travel Forum - Tripadvisor` },
    reddit("travel"),
    { host: "www.nomadicmatt.com", path: (w) => `/travel-blogs/${w.slug}/`, title: (w) => `${T(w)}: My Tips (Updated 2026)` },
    { host: "www.skyscanner.net", path: (w) => `/news/tips/${w.slug}`, title: (w) => `${T(w)} | Skyscanner` },
    { host: "www.cntraveler.com", path: (w) => `/story/${w.slug}`, title: (w) => `${T(w)} | Condé Nast Traveler` },
    { host: "www.ricksteves.com", path: (w) => `/travel-tips/${w.focusSlug}`, title: (w) => `${F(w)} Tips by Rick Steves` },
    { host: "www.theguardian.com", path: (w, n) => `/travel/2026/feb/${day(n)}/${w.slug}`, title: (w) => `${T(w)} | Travel | The Guardian` },
    { host: "thepointsguy.com", path: (w) => `/guide/${w.slug}/?utm_source=newsletter&utm_campaign=deals`, title: (w) => `${T(w)} - The Points Guy` },
    { host: "www.timeout.com", path: (w) => `/travel/${w.slug}`, title: (w) => `${T(w)}: a local's guide - Time Out` },
    { host: "www.kayak.com", path: (w) => `/news/${w.slug}/`, title: (w) => `${T(w)} | KAYAK` },
  ],
  queries: [q, (w) => `${f(w)} tips 2026`, (w) => `${q(w)} reddit`, (w) => `${f(w)} budget guide`, (w) => `${f(w)} best time to book`, (w) => `${f(w)} mistakes to avoid`, (w) => `${q(w)} itinerary`],
  body: [
    (w) => `Prices for ${w.focus} swing a lot with the season: shoulder months such as April–May and September–October are usually the sweet spot.`,
    () => `Booking sites suggest setting fare alerts and staying flexible by a few days, which matters more than the day of the week you book.`,
    () => `Travellers on forums recommend budget carriers and rail passes for shorter hops, but warn that baggage fees can erase the savings.`,
    () => `Guidebooks suggest fewer bases and longer stays, since every move costs both money and a day of the trip.`,
    () => `Check entry rules and travel insurance before booking; several countries changed their visa requirements recently.`,
    () => `Local transport cards and city passes can cut costs noticeably if you plan to see several sights in a few days.`,
  ],
  closers: [
    (w) => `In short, stay flexible on dates, compare a couple of booking sites, and sort out ${w.focus} early for peak season.`,
    () => `Overall, a little flexibility and a clear budget up front get you most of the savings.`,
  ],
};

const FOOD: Domain = {
  id: "food",
  keywords: [
    "recipe", "bread", "sourdough", "pasta", "pizza", "ramen", "sushi", "curry", "cake", "cookie", "coffee", "tea", "espresso", "chicken",
    "steak", "rice", "tofu", "salad", "soup", "barbecue", "cast iron", "meal prep", "vegan", "vegetarian", "wine", "cheese", "breakfast",
    "dinner", "baking", "cooking",
  ],
  hints: ["cook", "bake", "kitchen", "eat", "food", "meal", "taste", "restaurant", "dish"],
  sources: "recipe sites, food writers and home-cook forums",
  sites: [
    { host: "www.seriouseats.com", path: (w, n) => `/${w.slug}-${8600000 + n}`, title: (w) => `${T(w)} | Serious Eats` },
    { host: "www.bonappetit.com", path: (w) => `/story/${w.slug}`, title: (w) => `${T(w)} | Bon Appétit` },
    { host: "www.allrecipes.com", path: (w, n) => `/recipe/${20000 + n * 37}/${w.slug}/`, title: (w) => `Easy ${F(w)} Recipe | Allrecipes` },
    { host: "cooking.nytimes.com", path: (w, n) => `/guides/${n + 10}-how-to-make-${w.focusSlug}`, title: (w) => `How to Make ${F(w)} - NYT Cooking` },
    { host: "www.bbcgoodfood.com", path: (w) => `/howto/guide/${w.slug}`, title: (w) => `${T(w)} | BBC Good Food` },
    reddit("Cooking"),
    { host: "www.kingarthurbaking.com", path: (w, n) => `/blog/2026/02/${day(n)}/${w.slug}`, title: (w) => `${T(w)} | King Arthur Baking` },
    { host: "www.thekitchn.com", path: (w, n) => `/${w.slug}-${23000000 + n}`, title: (w) => `${T(w)} | The Kitchn` },
    { host: "www.budgetbytes.com", path: (w) => `/${w.slug}/#recipe`, title: (w) => `${F(w)} - Budget Bytes` },
    { host: "www.foodandwine.com", path: (w, n) => `/${w.slug}-${8000000 + n}`, title: (w) => `${T(w)} | Food & Wine` },
    youtube((w) => `How to Make Perfect ${F(w)}`),
  ],
  queries: [q, (w) => `${f(w)} recipe easy`, (w) => `${f(w)} serious eats`, (w) => `how to make ${f(w)} at home`, (w) => `${f(w)} mistakes`, (w) => `${f(w)} reddit cooking`, (w) => `best ${f(w)} technique`],
  body: [
    (w) => `Food writers agree that good ${w.focus} depends more on technique and timing than on special equipment.`,
    () => `Recipe testers recommend weighing ingredients rather than using cups, which makes results far more repeatable.`,
    (w) => `Home cooks on forums say their ${w.focus} improved most once they slowed down and tasted as they went.`,
    () => `Quality ingredients matter, but the sources note that mid-priced ones are often indistinguishable in blind tests.`,
    (w) => `Several guides list common ${w.focus} mistakes, most of them about heat, timing and rushing the final step.`,
    () => `Regional styles vary a lot, so it is worth trying a couple of versions before settling on a favourite.`,
  ],
  closers: [
    (w) => `In short, pick one well-tested ${w.focus} recipe, follow it exactly the first time, then adjust to taste.`,
    (w) => `Overall, practice and a reliable recipe matter more than gear when it comes to ${w.focus}.`,
  ],
};

const PRODUCTS: Domain = {
  id: "products",
  keywords: [
    "headphones", "earbuds", "laptop", "phone", "smartphone", "iPhone", "tablet", "TV", "monitor", "keyboard", "camera", "vacuum",
    "robot vacuum", "mattress", "running shoes", "trail running shoes", "shoes", "sneakers", "e-bike", "bike", "espresso machine",
    "coffee maker", "air fryer", "blender", "smartwatch", "stroller", "heat pump", "solar panel", "router", "printer", "backpack", "tent",
    "dishwasher", "washing machine", "electric car", "speaker",
  ],
  hints: ["best", "cheapest", "cheap", "budget", "review", "reviews", "buy", "worth it", "vs", "brand", "deal"],
  pluralFocus: true,
  sources: "review sites, buying guides and owner forums",
  sites: [
    { host: "www.rtings.com", path: (w) => `/${w.focusSlug}/reviews/best`, title: (w) => `The Best ${F(w)} of 2026 - RTINGS.com` },
    { host: "www.nytimes.com", path: (w) => `/wirecutter/reviews/best-${w.focusSlug}/#our-pick`, title: (w) => `The Best ${F(w)} | Reviews by Wirecutter` },
    { host: "www.theverge.com", path: (w) => `/guides/${w.slug}`, title: (w) => `The best ${w.focus} for 2026 | The Verge` },
    {
      host: "www.consumerreports.org",
      path: (w) => `/${w.focusSlug}/buying-guide/?utm_source=search&utm_medium=web`,
      title: (w) => `${F(w)} Buying Guide - Consumer Reports`,
    },
    reddit("BuyItForLife"),
    { host: "www.tomsguide.com", path: (w) => `/best-picks/best-${w.focusSlug}`, title: (w) => `Best ${F(w)} 2026: tested and rated | Tom's Guide` },
    { host: "www.cnet.com", path: (w) => `/reviews/best-${w.focusSlug}/`, title: (w) => `Best ${F(w)} for 2026 - CNET` },
    { host: "www.techradar.com", path: (w) => `/best/best-${w.focusSlug}`, title: (w) => `The best ${w.focus} 2026: top picks tested by experts | TechRadar` },
    { host: "www.amazon.com", path: (w) => `/s?k=${encodeURIComponent(f(w)).replace(/%20/g, "+")}`, title: (w) => `Amazon.com: ${f(w)}` },
    youtube((w) => `${F(w)}: Tested and Compared`),
    { host: "www.which.co.uk", path: (w) => `/reviews/${w.focusSlug}`, title: (w) => `Best ${F(w)} 2026 - Which?` },
  ],
  queries: [q, (w) => `best ${f(w)} 2026`, (w) => `${f(w)} review`, (w) => `${f(w)} buying guide`, (w) => `${f(w)} reddit buyitforlife`, (w) => `${f(w)} vs alternatives`, (w) => `${f(w)} worth it`],
  body: [
    (w) => `In independent tests of ${w.focus}, the leading models land within a few percent of each other, so price and fit for your use matter more than rank.`,
    () => `Mid-range picks get you most of the way; the premium tier mostly adds polish rather than capability.`,
    () => `Owners on forums report that durability and after-sales support matter as much as launch-day reviews.`,
    () => `Reviewers recommend checking return policies, since comfort and fit are hard to judge from a spec sheet.`,
    (w) => `Last year's ${w.focus} are often discounted heavily and are nearly as good as this year's.`,
    () => `Testers caution that marketing claims about speed, battery life and longevity often outrun real-world results.`,
  ],
  closers: [
    (w) => `In short, shortlist two or three well-reviewed ${w.focus} in your budget and buy from a seller with easy returns.`,
    (w) => `Overall, the best ${w.focus} for you are the ones that fit how you will actually use them, not the top of a ranking.`,
  ],
};

const EDUCATION: Domain = {
  id: "education",
  keywords: [
    "piano", "guitar", "violin", "language", "Spanish", "French", "Japanese", "German", "math", "calculus", "statistics", "chemistry",
    "physics", "exam", "GRE", "degree", "college", "university", "MBA", "online course", "course", "bootcamp", "scholarship",
    "homework", "essay", "vocabulary", "certification",
  ],
  hints: ["learn", "learning", "study", "studying", "student", "teach", "teacher", "school", "adult", "beginner", "class", "lesson", "tutor"],
  sources: "course platforms, educators and learner communities",
  sites: [
    { host: "www.coursera.org", path: (w) => `/articles/${w.slug}`, title: (w) => `${T(w)}: A Beginner's Guide | Coursera` },
    { host: "www.edx.org", path: (w) => `/learn/${w.focusSlug}`, title: (w) => `Learn ${F(w)} with Online Courses and Programs | edX` },
    { host: "www.khanacademy.org", path: (w) => `/${w.focusSlug}`, title: (w) => `${F(w)} | Khan Academy` },
    reddit((w) => titleCase(w.focus).replace(/[^A-Za-z0-9]/g, "")),
    { host: "www.udemy.com", path: (w) => `/topic/${w.focusSlug}/`, title: (w) => `Top ${F(w)} Courses Online - Updated [March 2026] | Udemy` },
    { host: "www.edutopia.org", path: (w) => `/article/${w.slug}`, title: (w) => `${T(w)} | Edutopia` },
    { host: "www.theguardian.com", path: (w, n) => `/education/2026/jan/${day(n)}/${w.slug}`, title: (w) => `${T(w)} | Education | The Guardian` },
    { host: "www.wikihow.com", path: (w) => `/${hyphenTitle(w)}`, title: (w) => `${T(w)}: 12 Steps (with Pictures) - wikiHow` },
    youtube((w) => `${F(w)} Lesson 1 for Complete Beginners`),
    { host: "www.open.edu", path: (w) => `/openlearn/${w.focusSlug}`, title: (w) => `${F(w)} | OpenLearn - Open University` },
    { host: "www.scientificamerican.com", path: (w) => `/article/${w.slug}/`, title: (w) => `${T(w)}: What the Science of Learning Says | Scientific American` },
  ],
  queries: [q, (w) => `${f(w)} for beginners`, (w) => `best way to learn ${f(w)}`, (w) => `${f(w)} online course free`, (w) => `${f(w)} study plan`, (w) => `${f(w)} reddit tips`, (w) => `how long to learn ${f(w)}`],
  body: [
    (w) => `Educators agree that short, regular practice beats long, occasional sessions when learning ${w.focus}.`,
    (w) => `Most course platforms offer a free introductory ${w.focus} track, a low-risk way to find out whether the format suits you.`,
    () => `Learners on forums say a clear weekly plan and a way to check progress keep motivation going after the first month.`,
    () => `Research on learning points to spaced repetition and testing yourself, rather than rereading, as the most reliable techniques.`,
    () => `A teacher or tutor, even occasionally, catches habits that are hard to unlearn later.`,
    () => `Expect a plateau after a few months; the sources describe it as normal and usually temporary.`,
  ],
  closers: [
    (w) => `In short, pick one structured ${w.focus} resource, practise a little every day, and get feedback early.`,
    (w) => `Overall, consistency and feedback matter more than which ${w.focus} course you choose.`,
  ],
};

/** Anything the keyword sets do not recognise: encyclopaedias, explainers and Q&A. */
const GENERAL: Domain = {
  id: "general",
  keywords: [],
  hints: [],
  sources: "encyclopaedias, news explainers and Q&A forums",
  sites: [
    { host: "en.wikipedia.org", path: (w) => `/wiki/${underscored(w)}`, title: (w) => `${T(w)} - Wikipedia` },
    { host: "www.britannica.com", path: (w) => `/topic/${w.slug}`, title: (w) => `${T(w)} | Britannica` },
    { host: "www.bbc.co.uk", path: (w, n) => `/news/articles/c${id36(n, 104729)}${w.slug.length}o`, title: (w) => `${T(w)}: what you need to know - BBC News` },
    { host: "www.reddit.com", path: (w, n) => `/r/explainlikeimfive/comments/${id36(n, 7919)}/eli5_${w.slug.replace(/-/g, "_")}/`, title: (w) => `ELI5: ${w.topic}? : r/explainlikeimfive` },
    { host: "www.nationalgeographic.com", path: (w) => `/science/article/${w.slug}`, title: (w) => `${T(w)} | National Geographic` },
    { host: "www.smithsonianmag.com", path: (w, n) => `/science-nature/${w.slug}-${(n * 7919) % 99999}/`, title: (w) => `${T(w)} | Smithsonian` },
    { host: "www.theguardian.com", path: (w, n) => `/science/2026/mar/${day(n)}/${w.slug}`, title: (w) => `${T(w)} | Science | The Guardian` },
    { host: "www.nytimes.com", path: (w) => `/2026/03/14/science/${w.slug}.html`, title: (w) => `What Experts Say About ${titleCase(w.topic)} - The New York Times` },
    { host: "www.quora.com", path: (w) => `/${hyphenTitle(w)}`, title: (w) => `${T(w)}? - Quora` },
    { host: "science.howstuffworks.com", path: (w) => `/${w.slug}.htm`, title: (w) => `${T(w)} | HowStuffWorks` },
    { host: "www.abc.net.au", path: (w, n) => `/news/2026-02-0${(n % 9) + 1}/${w.slug}/10${n}4512`, title: (w) => `${T(w)} explained - ABC News` },
  ],
  queries: [q, (w) => `${q(w)} explained`, (w) => `${q(w)} simple explanation`, (w) => `${q(w)} reddit`, (w) => `${q(w)} history`, (w) => `${q(w)} facts`, (w) => `${q(w)} latest research`],
  body: [
    () => `Encyclopaedias and explainers give the same basic account, with the longer pieces adding history and context.`,
    () => `Several explainers walk through it step by step, which makes the key idea easier to follow than the textbook version.`,
    () => `Forum threads add useful everyday examples, although a few answers there oversimplify.`,
    () => `Recent news coverage adds newer findings, but the core explanation has not changed in years.`,
    () => `Experts quoted in the sources caution against popular myths that still circulate online.`,
    () => `Museums and universities publish good short introductions that are free to read.`,
  ],
  closers: [
    () => `In short, the mainstream explanation is well established, and the encyclopaedia entries are a good place to go deeper.`,
    () => `Overall, the sources agree on the essentials and differ mainly in how much detail they give.`,
  ],
};

/** In order of precedence: on a tie, the earlier domain wins. */
export const DOMAINS: readonly Domain[] = [TECH, BUSINESS, FINANCE, HEALTH, TRAVEL, FOOD, PRODUCTS, EDUCATION, GENERAL];

export function domainById(id: DomainId): Domain {
  return DOMAINS.find((d) => d.id === id)!;
}

export function hostOf(site: Site, w: TopicWords): string {
  return typeof site.host === "string" ? site.host : site.host(w);
}

interface Match {
  word: string;
  at: number;
  /** The word as it appeared, plural included ("flights", "CRMs"). */
  display: string;
}

export function find(word: string, text: string): Match | null {
  const escaped = word.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // A whole word, or its plural: "flight" finds "flights", "crm" finds "CRMs".
  const match = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(s|es)?(?![\\p{L}\\p{N}])`, "u").exec(text.toLowerCase());
  if (!match) return null;
  const plural = match[1] ?? "";
  const display = /\p{Lu}/u.test(word) ? `${word}${plural}` : match[0];
  return { word, at: match.index, display };
}

/**
 * The domain a topic belongs to and the keyword it is about. A domain needs one of its keywords in
 * the topic; a multi-word keyword weighs more ("espresso machine" beats "espresso"); hints add
 * weight. With no keyword anywhere the topic is general and is its own focus.
 */
export function classify(topic: string): { domain: Domain; focus: string } {
  let best: { domain: Domain; score: number; focus: Match } | null = null;
  for (const domain of DOMAINS) {
    const keywords = domain.keywords.map((k) => find(k, topic)).filter((m): m is Match => m !== null);
    if (keywords.length === 0) continue;
    const hints = domain.hints.filter((h) => find(h, topic) !== null).length;
    const score = keywords.reduce((sum, m) => sum + m.word.split(/\s+/).length, 0) + hints;
    // The earliest keyword, the longest of those starting at the same place.
    const focus = keywords.reduce((a, b) => (b.at < a.at || (b.at === a.at && b.word.length > a.word.length) ? b : a));
    if (!best || score > best.score) best = { domain, score, focus };
  }
  if (!best) return { domain: GENERAL, focus: topic };
  return { domain: best.domain, focus: best.domain.pluralFocus ? plural(best.focus.display) : best.focus.display };
}
