import { config } from "@/lib/config/env";
import { buildOpenApiDocument } from "@/lib/http/openapi";
import { otherMethods } from "@/lib/http/methods";

let cached: string | undefined;

export function GET(): Response {
  cached ??= JSON.stringify(buildOpenApiDocument({ serverUrl: `${config().PUBLIC_BASE_URL}/api/v1` }));
  return new Response(cached, {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=60" },
  });
}

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
