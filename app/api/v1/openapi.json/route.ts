import { config } from "@/lib/config/env";
import { buildOpenApiDocument } from "@/lib/http/openapi";

let cached: string | undefined;

export function GET(): Response {
  cached ??= JSON.stringify(buildOpenApiDocument({ serverUrl: `${config().PUBLIC_BASE_URL}/api/v1` }));
  return new Response(cached, {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=60" },
  });
}
