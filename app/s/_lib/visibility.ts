// What a visibility analysis's page (signed in or shared) reads besides the analysis: the page of
// mentions its address asks for and, when it names one, an answer with its mentions marked.
import { ApiError } from "@/lib/http/errors";
import { MentionsQuery, type VisibilityAnalysis } from "@/lib/schemas/visibility";
import { answerWithMentions, mentionPage, type MentionsAccess } from "@/lib/visibility/read";
import { filterOfQuery, mentionsQueryOf, queryOfFilter, type Evidence, type Links } from "../_components/visibility-view";

/** Mentions a page shows at once. */
const PAGE = 25;

/** The links of a page whose address is `base` (`/analyses/va_…` or `/s/<token>`). */
export function linksAt(base: string): Links {
  return {
    mentions: (filter) => `${base}${queryOfFilter(filter)}#mentions`,
    answer: (runId, filter) => `${base}${queryOfFilter(filter, { answer: runId })}#answer`,
  };
}

export async function visibilityEvidence(access: MentionsAccess, analysis: VisibilityAnalysis, query: Record<string, string | string[] | undefined>, base: string): Promise<Evidence> {
  const filter = filterOfQuery(query, analysis);
  const cursor = typeof query.cursor === "string" && query.cursor !== "" ? query.cursor : undefined;
  const read = (from?: string) => mentionPage(access, analysis.id, MentionsQuery.parse({ ...mentionsQueryOf(filter, analysis), limit: PAGE, cursor: from }));
  let page;
  try {
    page = await read(cursor);
  } catch (error) {
    // A cursor from elsewhere (or edited by hand) is the API's 400; the page starts again.
    if (!(cursor && error instanceof ApiError && error.code === "invalid_request")) throw error;
    page = await read(undefined);
  }
  const wanted = typeof query.answer === "string" && analysis.run_ids.includes(query.answer) ? query.answer : null;
  const answer = wanted ? await answerWithMentions(access, analysis.id, wanted) : null;
  return {
    filter,
    items: page.items,
    next: page.next_cursor ? `${base}${queryOfFilter(filter, { cursor: page.next_cursor })}#mentions` : null,
    later: cursor !== undefined,
    answer,
  };
}
