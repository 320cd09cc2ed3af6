// Refusals in the words of the form that was sent (app/_lib/form-words.ts): the API's field paths
// become the form's labels, and a 402 loses the address the page links to instead.
import { describe, expect, it } from "vitest";
import { inFormWords, withoutBillingAddress } from "@/app/_lib/form-words";

const PROJECT = { name: "Project name", "context.primary_domain": "Primary domain", "context.domains": "Other domains", "context.brands": "Brands" };

describe("inFormWords", () => {
  it("names a field by its label", () => {
    expect(inFormWords("context.primary_domain: must be a domain name like acme.com", PROJECT)).toBe("Primary domain: must be a domain name like acme.com");
  });

  it("names an item of a list by its label and number, 1-based", () => {
    expect(inFormWords("context.domains[1]: must be a domain name like acme.com", PROJECT)).toBe("Other domains (item 2): must be a domain name like acme.com");
    expect(inFormWords("prompts[2].text: must be at most 4000 characters", { "prompts[].text": "Prompt {n}" })).toBe("Prompt 3: must be at most 4000 characters");
  });

  it("words each of several complaints, and leaves alone what it has no label for", () => {
    expect(inFormWords("name: is required; context.brands[0]: must not contain NUL (U+0000); project: has the wrong format", PROJECT)).toBe(
      "Project name: is required; Brands (item 1): must not contain NUL (U+0000); project: has the wrong format",
    );
    expect(inFormWords("No such project \"pr_x\".", PROJECT)).toBe("No such project \"pr_x\".");
    // A rule holding "; " stays one complaint.
    expect(inFormWords("name: must be 1 to 100 characters; then try again", PROJECT)).toBe("Project name: must be 1 to 100 characters; then try again");
  });
});

describe("withoutBillingAddress", () => {
  it("drops the closing 'Add credit at URL' of a 402, keeping the figures", () => {
    expect(
      withoutBillingAddress("Not enough credit: this needs 0.065 USD and 0.00 USD is available. Nothing was started. Add credit at http://127.0.0.1:3000/account#billing"),
    ).toBe("Not enough credit: this needs 0.065 USD and 0.00 USD is available. Nothing was started.");
  });

  it("drops an address anywhere else too", () => {
    expect(withoutBillingAddress("Top up at https://geoscope.example/account#billing first.")).toBe("Top up at first.");
  });
});
