// The `summary` of every object that has one (decisions.md "Plain words beside every figure";
// docs/decisions.md "Plain words"): sentences made from its figures by fixed templates
// (lib/words). zod only.
import { z } from "zod";
import { SUMMARY_SENTENCES } from "../words/sentences";

export const Summary = z
  .array(z.string())
  .max(SUMMARY_SENTENCES)
  .meta({
    id: "Summary",
    description: `What to read first: up to ${SUMMARY_SENTENCES} sentences in plain words, most important first, one per item (join them with spaces for a paragraph). Made from the figures by fixed templates, no model: each sentence names its n ("33 of 36 answers"), says "about" before a rate whose 95% interval is wider than 20 points, rounds as the pages do (whole percents, one decimal under 10%; intervals rounded outward), and calls a difference a change only when its test says it is one. Made when the object is read, from the figures it states, so objects stored before it existed have one too.`,
    examples: [["HubSpot is named in 33 of 36 answers (92%, 95% interval 78–98%); Pipedrive in 18 (about 50%, 34–66%).", "Across engines, Claude names Pipedrive least (2 of 12) and ChatGPT most (10 of 12)."]],
  });
