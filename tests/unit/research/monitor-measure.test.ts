// The monitor page's "What it measures" form: its prompts read one per line, a kept line keeping its
// prompt's question and market, engines compared as a set, and how the project's brands and
// competitors now differ from the monitor's.
import { describe, expect, it } from "vitest";
import { promptBoxes, promptLines } from "@/app/(research)/_lib/lines";
import { entityChanges, sameEngines } from "@/app/(research)/monitors/_lib/measure";
import { keptPrompts } from "@/lib/monitors/prompts";
import type { Entity } from "@/lib/visibility/entities";

const entity = (name: string, role: Entity["role"] = "competitor", more: Partial<Entity> = {}): Entity => ({
  name,
  role,
  aliases: [],
  domains: [],
  case_sensitive: false,
  ...more,
});

describe("the prompts box", () => {
  it("reads one prompt per non-empty line, trimmed, a repeat kept", () => {
    expect(promptLines(" best crm \r\n\n pipedrive vs hubspot\nbest crm\n  \n")).toEqual(["best crm", "pipedrive vs hubspot", "best crm"]);
    expect(promptLines(null)).toEqual([]);
  });

  it("keeps a kept line's question and market; a new line is its text alone", () => {
    const source = { kind: "question", analysis_id: "qa_1", question_id: "q3" };
    const current = [
      { text: "best crm", source, location: { country: "DE" }, language: "de" },
      { text: "pipedrive vs hubspot", source: null, location: null, language: null },
    ];
    expect(keptPrompts(["pipedrive vs hubspot", "crm for agencies", "best crm"], current)).toEqual([
      { text: "pipedrive vs hubspot" },
      { text: "crm for agencies" },
      { text: "best crm", source, location: { country: "DE" }, language: "de" },
    ]);
  });

  it("matches a text the monitor has once per market occurrence by occurrence", () => {
    const current = [
      { text: "best crm", source: null, location: { country: "DE" }, language: null },
      { text: "best crm", source: null, location: { country: "US" }, language: null },
    ];
    expect(keptPrompts(["best crm", "best crm", "best crm"], current)).toEqual([
      { text: "best crm", location: { country: "DE" } },
      { text: "best crm", location: { country: "US" } },
      { text: "best crm" },
    ]);
  });
});

describe("the prompts one box each", () => {
  it("keeps a box's line breaks (a browser's CRLF read as LF), trims its ends and skips empty boxes, in order", () => {
    expect(promptBoxes(["  Context: an agency.\r\nWhich CRM fits?\r\n", "", " \r\n ", "best crm", "a\rb"])).toEqual(["Context: an agency.\nWhich CRM fits?", "best crm", "a\nb"]);
    expect(promptBoxes([])).toEqual([]);
  });
});

describe("engines", () => {
  it("are the same in any order, and differ when one is added or taken away", () => {
    expect(sameEngines(["claude", "chatgpt"], ["chatgpt", "claude"])).toBe(true);
    expect(sameEngines(["chatgpt"], ["chatgpt", "claude"])).toBe(false);
    expect(sameEngines(["chatgpt", "gemini"], ["chatgpt", "claude"])).toBe(false);
  });
});

describe("the project's brands and competitors against the monitor's", () => {
  const monitor = [entity("Acme CRM", "brand", { domains: ["acme.example"] }), entity("HubSpot"), entity("Pipedrive")];

  it("are the same when only their order differs", () => {
    expect(entityChanges(monitor, [entity("Pipedrive"), entity("HubSpot"), entity("Acme CRM", "brand", { domains: ["acme.example"] })])).toBeNull();
  });

  it("name what was added, removed and changed", () => {
    const project = [entity("Acme CRM", "brand", { domains: ["acme.example"] }), entity("HubSpot", "competitor", { aliases: ["Hubspot CRM"] }), entity("Salesforce")];
    expect(entityChanges(monitor, project)).toEqual({ added: ["Salesforce"], removed: ["Pipedrive"], changed: ["HubSpot"] });
  });

  it("count a role or a domain changed, and a name's spelling", () => {
    expect(entityChanges(monitor, [entity("Acme CRM", "competitor", { domains: ["acme.example"] }), entity("HubSpot"), entity("Pipedrive")])).toEqual({ added: [], removed: [], changed: ["Acme CRM"] });
    expect(entityChanges(monitor, [entity("Acme CRM", "brand", { domains: ["acme.example"] }), entity("Hubspot"), entity("Pipedrive")])).toEqual({ added: [], removed: [], changed: ["Hubspot"] });
  });
});
