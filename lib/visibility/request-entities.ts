// The entities an analysis tracks, as its request gives them or from its project's context
// (decisions.md "Visibility analyses"): shared by visibility analyses, comparisons, and the reading
// of a finished run for its project's and its monitor's entities (./run-observations.ts), so that
// all three name the same entities the same way.
import type { z } from "zod";
import { ApiError } from "../http/errors";
import { domainNameOf } from "../schemas/projects";
import { VISIBILITY_LIMITS, type VisibilityAnalysisRequest } from "../schemas/visibility";
import { entitiesFromContext, type Entity, type EntityContext } from "./entities";

type Request = z.output<typeof VisibilityAnalysisRequest>;

/** An entity as a request gives it, with its defaults and its domains as hosts. */
export function entityOf(input: Request["entities"] extends (infer E)[] | undefined ? E : never): Entity {
  return {
    name: input.name,
    role: input.role,
    aliases: input.aliases ?? [],
    domains: (input.domains ?? []).map((d) => domainNameOf(d)!),
    case_sensitive: input.case_sensitive ?? false,
  };
}

/** The entities tracked: as given, else the project context's (400 when it has none, or too many). */
export function entitiesFor(body: Pick<Request, "entities">, context: EntityContext | null): Entity[] {
  if (body.entities) return body.entities.map(entityOf);
  const entities = entitiesFromContext(context ?? {});
  if (entities.length === 0) {
    throw new ApiError("invalid_request", "entities: are required: the project's context names no brands or competitors (add them to the project, or give entities)");
  }
  if (entities.length > VISIBILITY_LIMITS.entities) {
    throw new ApiError(
      "invalid_request",
      `entities: the project's context names ${entities.length} brands and competitors; an analysis tracks at most ${VISIBILITY_LIMITS.entities} (give entities)`,
    );
  }
  return entities;
}
