// The workload of the visibility benchmarks (bench:visibility-compute in memory, bench:visibility
// on a database): answers like the simulator's (1.5-3 KB: an opener that sometimes quotes the
// prompt, numbered or bulleted lists of brands from a catalogue, prose naming several, now and
// then a sentence saying nothing was found about one), five tracked entities with aliases and
// domains and seven more brands the answers name, three engines and four markets; the same runs
// for the same count.
import { SeededRandom } from "@/lib/stats";
import type { Entity, VisibilityRunInput } from "@/lib/visibility";

const ENGINES = ["chatgpt", "claude", "gemini"];
const COUNTRIES = ["US", "GB", "DE", null];

// The catalogue: five tracked (with aliases and domains), seven more that answers name too.
export const entities: Entity[] = [
  { name: "HubSpot", role: "brand", aliases: ["HubSpot CRM", "Hubspot Sales Hub"], domains: ["hubspot.com"], case_sensitive: false },
  { name: "Pipedrive", role: "competitor", aliases: [], domains: ["pipedrive.com"], case_sensitive: false },
  { name: "Zoho CRM", role: "competitor", aliases: ["Zoho"], domains: ["zoho.com"], case_sensitive: false },
  { name: "Salesforce", role: "competitor", aliases: ["Salesforce Sales Cloud", "SFDC"], domains: ["salesforce.com"], case_sensitive: false },
  { name: "Monday", role: "competitor", aliases: ["monday.com", "Monday CRM"], domains: ["monday.com"], case_sensitive: true },
];
const others = ["Freshsales", "Copper", "Insightly", "Keap", "Close", "Nutshell", "Capsule"];
const catalogue = [...entities.map((e) => e.name), ...others];
// How often answers name each (the leader most), so visibility spreads from ~70% down to ~10%.
const weights = [0.7, 0.45, 0.35, 0.5, 0.12, 0.3, 0.2, 0.15, 0.2, 0.1, 0.1, 0.1];

const FILLER = [
  "Pricing is per seat and usually billed annually, with discounts for larger teams.",
  "Most teams weigh ease of setup, the quality of integrations with email and calendars, and reporting.",
  "Reviews on G2 and Capterra praise the pipeline views and the mobile apps.",
  "Automation rules save sales reps several hours a week on follow-ups and data entry.",
  "Small businesses often start with a free tier and upgrade once they need forecasting.",
  "Customer support quality varies by plan, and phone support is often reserved for enterprise tiers.",
  "Data migration from spreadsheets is straightforward with CSV imports and field mapping.",
  "Security certifications such as SOC 2 and GDPR tooling matter for European buyers.",
];
const PRAISE = [
  "is known for its intuitive pipeline view and strong email integration",
  "offers a generous free plan and an ecosystem of marketing tools",
  "suits enterprises that need deep customisation and reporting",
  "is popular with small teams for its low price and simple setup",
  "does not offer a free plan, but its trial lasts 14 days",
];

/** `count` prompts of the kind the answers are about, the same for the same count. */
export const benchPrompts = (count: number) =>
  Array.from({ length: count }, (_, i) => (i % 4 === 0 ? `pipedrive vs hubspot for team ${i}` : `what is the best crm for a team of ${i + 2} people?`));

/** `count` runs, run r answering prompts[r % prompts.length] (200 prompts unless given). */
export function buildRuns(count: number, prompts: readonly string[] = benchPrompts(200)): VisibilityRunInput[] {
  const rng = new SeededRandom("bench visibility");
  const pick = <T>(items: readonly T[]) => items[rng.nextIndex(items.length)]!;
  const runs: VisibilityRunInput[] = [];
  for (let r = 0; r < count; r++) {
    const prompt = prompts[r % prompts.length]!;
    const topic = prompt.replace(/\?$/, "");
    const named = catalogue.filter((_, i) => rng.nextDouble() < weights[i]!);
    const ordered = named.sort(() => rng.nextDouble() - 0.5);
    const lines: string[] = [];
    lines.push(rng.nextDouble() < 0.5 ? `Searches for "${topic}" mostly turn up review sites, and they agree on more than they disagree.` : `Here is what recent, reputable sources say about choosing a CRM.`);
    lines.push(pick(FILLER) + " " + pick(FILLER));
    lines.push("");
    const numbered = rng.nextDouble() < 0.6;
    ordered.forEach((name, i) => lines.push(`${numbered ? `${i + 1}.` : "-"} **${name}** ${pick(PRAISE)}. ${pick(FILLER)}`));
    lines.push("");
    if (ordered.length > 1) lines.push(`${ordered[0]} and ${ordered[1]} are the most common picks, while ${pick(others)} appeals to niche teams. ${pick(FILLER)}`);
    if (rng.nextDouble() < 0.08) lines.push(`I couldn't find any reliable information about ${pick(catalogue)}.`);
    while (lines.join("\n").length < 1500 + rng.nextIndex(1500)) lines.push(pick(FILLER) + " " + pick(FILLER));
    const cited = Array.from({ length: 2 + rng.nextIndex(5) }, () => `https://${pick(["www.hubspot.com", "blog.pipedrive.com", "www.g2.com", "www.capterra.com", "zoho.com", "www.salesforce.com", "www.forbes.com"])}/page/${rng.nextIndex(100)}`);
    runs.push({
      run_id: `dr_${String(r).padStart(26, "0")}`,
      engine: ENGINES[r % 3]!,
      country: COUNTRIES[Math.floor(r / 3) % COUNTRIES.length]!,
      prompt,
      status: "completed",
      kind: "prompt",
      answer: lines.join("\n"),
      search_queries: [topic, `${topic} reviews`],
      cited_urls: cited,
    });
  }
  return runs;
}

