// [[sim:answer:TEXT]] (decisions.md "The simulator names brands"): TEXT, base64url of UTF-8, is
// the answer every engine gives, exactly, with sources and searches as usual and citations
// attached to its sentences through each provider's own mechanism. Tests use it to know the truth
// of every mention.

const ANSWER = /\[\[sim:answer:([A-Za-z0-9_-]*)\]\]/;

/** The exact answer a prompt asks for, or null. */
export function exactAnswerOf(prompt: string): string | null {
  const match = ANSWER.exec(prompt);
  return match ? Buffer.from(match[1]!, "base64url").toString("utf8") : null;
}

/** The directive for an answer: what a test puts in its prompt. */
export function answerDirective(text: string): string {
  return `[[sim:answer:${Buffer.from(text, "utf8").toString("base64url")}]]`;
}

/**
 * TEXT cut into sentences at sentence ends and line breaks: each with the exact whitespace that
 * came before it (`sep`, empty for the first), so joining them gives TEXT back, byte for byte.
 */
export function exactSentences(text: string): { sep: string; text: string }[] {
  const lead = /^\s*/.exec(text)![0];
  const body = text.slice(lead.length);
  const out: { sep: string; text: string }[] = [];
  let at = 0;
  let sep = "";
  for (const match of body.matchAll(/(?<=[.!?。！？])[^\S\n]+|\s*\n\s*/g)) {
    const piece = body.slice(at, match.index);
    if (piece === "") sep += match[0];
    // A list item's number ("1. HubSpot") does not end a sentence.
    else if (/^\d{1,3}[.)]$/.test(piece) && !match[0].includes("\n")) continue;
    else {
      out.push({ sep, text: piece });
      sep = match[0];
    }
    at = match.index + match[0].length;
  }
  const tail = body.slice(at);
  if (tail !== "") out.push({ sep, text: tail });
  else if (out.length > 0) out[out.length - 1]!.text += sep;
  // Empty or only whitespace: one sentence, as it is.
  if (out.length === 0) return [{ sep: "", text }];
  out[0] = { sep: "", text: lead + out[0]!.text };
  return out;
}
