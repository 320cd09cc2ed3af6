// Visibility analyses (decisions.md "Visibility analyses"): the pure computation the service,
// the pages, the CLI and MCP read through.
export { computeVisibilityAnalysis, VISIBILITY_METHOD, type EntityVisibility, type VisibilityExclusionReason, type VisibilityFigures } from "./analysis";
export { entitiesFromContext, normalizeEntity, unknownContextKeys, type Entity, type EntityContext, type EntityRole } from "./entities";
export { SHARE_OF_VOICE_BASIS, type EntityFigures } from "./figures";
export { buildMatcher, type Match, type Matcher } from "./matcher";
export type { MentionRow, NotCountedReason, VisibilityRunInput } from "./observe";
export { ABSENCE_PATTERNS, isAbsence } from "./absence";
export { isPromptEcho, quotable } from "./echo";
export { analyseText } from "./text";
