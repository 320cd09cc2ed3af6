// What a shared object's public body must not hold (decisions.md "Sharing"): checked the same way
// by the route-handler tests and the e2e specs. Pure: no test runner imported.

/** Calls `visit` with every key of every object in `value`, its value and the key it sits under. */
function walk(value: unknown, visit: (key: string, value: unknown, parent: string) => void, parent = ""): void {
  if (Array.isArray(value)) value.forEach((v) => walk(v, visit, parent));
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      visit(key, v, parent);
      walk(v, visit, key);
    }
  }
}

/** Fields that name a person or the project, or hold money: null on a shared page. */
const NULLED = ["charge", "held_usd", "charged_usd", "cost_usd", "project_id", "created_by"];
/** A monitor's too: its project, budget, month's spend and alert settings (webhook URL, email). */
const NULLED_IN_MONITOR = ["project", "monthly_budget_usd", "spend_month_to_date_usd", "alerts"];

/**
 * What in a public body identifies or bills the workspace, in words (none: []): any of `secrets`
 * (emails, the project's and workspace's ids), a charge's fields, a person, project or money field
 * that is not null, an input that names its project.
 */
export function workspaceLeaks(body: unknown, secrets: readonly string[]): string[] {
  const text = JSON.stringify(body);
  const leaks = secrets.filter((secret) => text.includes(secret)).map((secret) => `holds ${secret}`);
  for (const field of ["amount_usd", "unit_price_usd", "pricing_version"]) if (text.includes(`"${field}"`)) leaks.push(`holds a charge's ${field}`);
  walk(body, (key, value, parent) => {
    if (NULLED.includes(key) && value !== null) leaks.push(`${parent}.${key} is ${JSON.stringify(value)}`);
    if (key === "input" && value && typeof value === "object" && "project" in value) leaks.push(`${parent}.input names its project`);
  });
  // A monitor's body (its id `mo_…`): nothing of the workspace's project, money or alert settings either.
  const top = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  if (typeof top.id === "string" && top.id.startsWith("mo_"))
    for (const key of NULLED_IN_MONITOR) if (key in top && top[key] !== null) leaks.push(`monitor.${key} is ${JSON.stringify(top[key])}`);
  for (const field of ["webhook_url", "webhook_secret"]) if (text.includes(`"${field}"`)) leaks.push(`holds ${field}`);
  return leaks;
}
