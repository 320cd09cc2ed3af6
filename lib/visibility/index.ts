// Visibility analyses (decisions.md "Visibility analyses"): the pure computation the service,
// the pages, the CLI and MCP read through.
export {
  computeVisibility, computeVisibilityAnalysis, VISIBILITY_METHOD, type EntityVisibility, type StoredVisibilityFigures, type VisibilityComputation, type VisibilityExclusionReason, type VisibilityFigures,
} from "./analysis";
export { entitiesFromContext, normalizeEntity, unknownContextKeys, type Entity, type EntityContext, type EntityRole } from "./entities";
export { SHARE_OF_VOICE_BASIS, type EntityFigures } from "./figures";
export { buildMatcher, type Match, type Matcher } from "./matcher";
export { MENTION_WIDTH, MentionStore, mentionRows, REASON_CODES, type MentionRow, type NotCountedReason, type VisibilityRunInput } from "./observe";
export { ABSENCE_PATTERNS, isAbsence } from "./absence";
export { isPromptEcho, quotable } from "./echo";
export { analyseText } from "./text";
