import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/shares";
import { rotateShare } from "@/lib/shares/service";

export const POST = route(endpoints.rotateRunShare, ({ principal, params }) => rotateShare(principal, "run", params.run_id));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
