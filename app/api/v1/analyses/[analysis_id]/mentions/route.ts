import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/analyses";
import { listMentions, mentionsCsv } from "@/lib/visibility/read";

export const GET = route(endpoints.listMentions, ({ principal, params, query }) =>
  query.format === "csv" ? mentionsCsv(principal, params.analysis_id, query) : listMentions(principal, params.analysis_id, query),
);

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
