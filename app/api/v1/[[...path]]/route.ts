// Any path under /api/v1 that no other route file serves (Next.js tries this one last): 404 in
// the error envelope rather than Next.js's HTML page. See lib/http/methods.ts.
import { unknownPath } from "@/lib/http/methods";

export { unknownPath as GET, unknownPath as HEAD, unknownPath as POST, unknownPath as PUT, unknownPath as PATCH, unknownPath as DELETE, unknownPath as OPTIONS };
