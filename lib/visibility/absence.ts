// The absence guard: a mention in a sentence saying the engine found or knows nothing about the
// entity ("I couldn't find any information about X") names it only to say it has nothing to say.
// Every pattern is here, each with an example it must catch and a sentence it must not (the tests
// read both). The patterns see the sentence with this mention replaced by X (U+E000), so another
// entity named in the same sentence is never the one found absent; they ask for the words of
// absence around X and do not fire on ordinary negatives ("X does not offer a free plan").

/** Stands for the mention being judged inside its sentence. */
export const MENTION_MARK = "\uE000";
const X = MENTION_MARK;

const NEG =
  "(?:could\\s*n't|could\\s+not|can't|cannot|can\\s+not|was\\s+(?:not\\s+able|unable)\\s+to|wasn't\\s+able\\s+to|were\\s+(?:not\\s+able|unable)\\s+to|weren't\\s+able\\s+to|am\\s+unable\\s+to|did\\s*n't|did\\s+not|have\\s*n't|have\\s+not|had\\s*n't|had\\s+not|failed\\s+to)";
const FIND = "(?:find|locate|identify|uncover|surface|come\\s+across|turn\\s+up|retrieve|verify|confirm)";
const QUAL =
  "(?:(?:any|much|some|the|reliable|specific|relevant|credible|verifiable|detailed|additional|further|concrete|current|recent|up-to-date|public|publicly|available|official|independent|trustworthy|solid|meaningful|substantial)\\s+){0,4}";
const INFO =
  "(?:information|info|details|data|results|mentions|evidence|records|sources|reviews|documentation|coverage|references|anything|much|nothing)";
const ABOUT = "(?:about|on|regarding|for|concerning|related\\s+to|of|covering)";
/** Other names coordinated before X: "about Acme or X", "on Acme, Zenith and X". */
const BEFORE = `(?:[^.;:!?\\n${X}]{0,80}?(?:,|\\s(?:or|and|nor))\\s+)?`;
const KIND =
  "(?:(?:the|a|an|any)\\s+)?(?:(?:company|brand|product|tool|service|platform|software|app|vendor|provider|firm|business|startup|solution|website|site|entity|organi[sz]ation)\\s+)?(?:(?:called|named)\\s+)?";
/** What may follow X: the end of the clause or a coordination, not more about X ("X's pricing", "X easy to use"). */
const END =
  "(?=\\s*(?:[.,;:!?)\\]\"”]|'(?!s\\b)|$)|\\s+(?:or|and|nor|in|among|from|online|yet|beyond|anywhere|at\\s+all|either|specifically|itself|as\\s+an?|other\\s+than|except)\\b)";
const KNOWN =
  "(?:well[-\\s]?known|known|recogni[sz]ed|real|existing|established|widely[-\\s]known|notable|prominent|legitimate|registered|genuine)";
const THING =
  "(?:company|brand|product|tool|service|platform|software|app|vendor|provider|firm|business|name|entity|organi[sz]ation|solution|player|option)";

export type AbsencePattern = { id: string; pattern: RegExp; example: string; notAbsence: string };

const p = (source: string) => new RegExp(source, "iu");

export const ABSENCE_PATTERNS: readonly AbsencePattern[] = [
  {
    id: "could_not_find_information",
    pattern: p(`\\b(?:i|we)\\s+${NEG}\\s+${FIND}\\s+${QUAL}${INFO}\\s+${ABOUT}\\s+${BEFORE}${KIND}${X}${END}`),
    example: "I couldn't find any information about X.",
    notAbsence: "I couldn't find any information about pricing, but X offers a free trial.",
  },
  {
    id: "could_not_find_entity",
    pattern: p(`\\b(?:i|we)\\s+${NEG}\\s+${FIND}\\s+${BEFORE}${KIND}${X}(?=\\s*(?:[.,;:!?)]|$)|\\s+(?:in|among|anywhere|on\\s+(?:the|any)|mentioned|listed|referenced)\\b)`),
    example: "I could not find a company called X in the search results.",
    notAbsence: "I couldn't find a cheaper option than X for small teams.",
  },
  {
    id: "no_information",
    pattern: p(
      `(?:^|[^\\p{L}])(?:no|little\\s+(?:to\\s+no\\s+)?|hardly\\s+any|scant)\\s+${QUAL}${INFO}\\s+(?:(?:is|are|was|were|seems\\s+to\\s+be|appears\\s+to\\s+be)\\s+)?(?:(?:publicly\\s+)?(?:available|found|published|online)\\s+)?${ABOUT}\\s+${BEFORE}${KIND}${X}${END}`,
    ),
    example: "There is no reliable information on X.",
    notAbsence: "X has no information about its roadmap on its website, but it is popular.",
  },
  {
    id: "not_known",
    pattern: p(
      `${X}\\s+(?:(?:does|did)\\s*n't|(?:does|did)\\s+not)\\s+(?:appear|seem)\\s+to\\s+(?:be\\s+(?:a\\s+|an\\s+)?${KNOWN}\\b|exist\\b)|${X}\\s+(?:is\\s*n't|is\\s+not)\\s+(?:a\\s+|an\\s+)?${KNOWN}\\s+${THING}\\b`,
    ),
    example: "X does not appear to be a known CRM vendor.",
    notAbsence: "X does not appear to be the cheapest option.",
  },
  {
    id: "not_familiar",
    pattern: p(`\\b(?:i|we)(?:'m|'re|\\s+am|\\s+are)?\\s+not\\s+(?:familiar|aware)\\s+(?:with|of)\\s+${BEFORE}${KIND}${X}${END}`),
    example: "I'm not familiar with a product named X.",
    notAbsence: "I'm not aware of X offering a free plan.",
  },
  {
    id: "no_knowledge",
    pattern: p(
      `\\b(?:i|we)\\s+(?:(?:do|did)\\s*n't|(?:do|did)\\s+not)\\s+(?:have|possess)\\s+${QUAL}(?:${INFO}|knowledge)\\s+${ABOUT}\\s+${BEFORE}${KIND}${X}${END}|\\b(?:i|we)\\s+(?:have|had)\\s+no\\s+${QUAL}(?:${INFO}|knowledge)\\s+${ABOUT}\\s+${BEFORE}${KIND}${X}${END}|\\b(?:i|we)\\s+(?:(?:do|did)\\s*n't|(?:do|did)\\s+not)\\s+know\\s+(?:(?:anything|much)\\s+)?(?:about\\s+)?${BEFORE}${KIND}${X}${END}`,
    ),
    example: "I don't have reliable information about X.",
    notAbsence: "I don't have a preference between HubSpot and X: both are good.",
  },
  {
    id: "not_in_results",
    pattern: p(
      `${X}\\s+(?:was|is|were|are|does|did)(?:n't|\\s+not)\\s+(?:appear|show\\s+up|come\\s+up|feature|mentioned|listed|found|covered|included|referenced)\\s+(?:anywhere\\s+)?(?:in|among|within|across)\\s+(?:the\\s+|my\\s+|any\\s+(?:of\\s+the\\s+)?)?(?:(?:search|web)\\s+)?(?:results|sources|searches|pages|articles|listings|documents)\\b|${X}\\s+(?:could|can)(?:n't|not|\\s+not)\\s+be\\s+(?:found|located|verified|identified)\\b`,
    ),
    example: "X was not mentioned in any of the search results.",
    notAbsence: "X is not included in the free plan.",
  },
  {
    id: "search_found_nothing",
    pattern: p(
      `\\b(?:my|the|our)\\s+(?:web\\s+)?search(?:es)?(?:\\s+results)?\\s+(?:returned|turned\\s+up|yielded|found|produced|showed|surfaced|gave)\\s+(?:nothing|no\\s+${QUAL}${INFO})\\s+${ABOUT}\\s+${BEFORE}${KIND}${X}${END}|\\bsearch(?:es|ing)?\\s+for\\s+${KIND}${X}\\s+(?:returned|turned\\s+up|yielded|found|produced|gave)\\s+(?:nothing|no\\s)|\\bnothing\\s+(?:came\\s+up|turned\\s+up|was\\s+found|is\\s+available)\\s+${ABOUT}\\s+${BEFORE}${KIND}${X}${END}`,
    ),
    example: "My searches returned nothing about X.",
    notAbsence: "My searches returned several reviews of X.",
  },
];

/** Words one of the patterns needs; a sentence without any is not looked at further. */
const CUES = /\b(?:find|found|locate|identify|uncover|surface|across|verify|confirm|information|info|details|data|results|mentions|evidence|records|sources|reviews|documentation|coverage|references|nothing|known|recogni[sz]ed|exist|familiar|aware|knowledge|know|mentioned|listed|appear|show|feature|included|referenced|search|searches)\b/iu;

/**
 * A word of negation every pattern needs outside X (n't, not, no, unable, failed, little, hardly,
 * scant; "nothing" and "cannot" hold "not"): loose on purpose, a sentence without any is not looked at.
 */
const NEGATION = /n['’‘`´]t|not|no\s|unable|failed|little|hardly|scant/iu;

/**
 * Whether any mention in the sentence could be found absent (its cue words and a negation): what
 * isAbsence checks first, and what the analysis asks once per sentence rather than per mention.
 */
export function mayStateAbsence(sentence: string): boolean {
  return NEGATION.test(sentence) && CUES.test(sentence);
}

/** Whether the sentence says the engine found or knows nothing about the mention at [start, end) (offsets into `sentence`). */
export function isAbsence(sentence: string, start: number, end: number): boolean {
  return mayStateAbsence(sentence) && statesAbsence(sentence, start, end);
}

/** isAbsence for a sentence of which mayStateAbsence holds. */
export function statesAbsence(sentence: string, start: number, end: number): boolean {
  const marked = (sentence.slice(0, start) + X + sentence.slice(end)).replace(/[’‘`´]/g, "'");
  return ABSENCE_PATTERNS.some((a) => a.pattern.test(marked));
}

/** The id of the first pattern that says the mention is absent (for tests and explanations), or null. */
export function absencePatternOf(sentence: string, start: number, end: number): string | null {
  const marked = (sentence.slice(0, start) + X + sentence.slice(end)).replace(/[’‘`´]/g, "'");
  return ABSENCE_PATTERNS.find((a) => a.pattern.test(marked))?.id ?? null;
}
