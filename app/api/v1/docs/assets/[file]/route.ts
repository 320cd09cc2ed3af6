// Static assets of the API explorer, read from the swagger-ui-dist package.
import { readFile } from "node:fs/promises";
import path from "node:path";
import swaggerUiPath from "swagger-ui-dist/absolute-path.js";
import { ApiError } from "@/lib/http/errors";
import { newRequestId, toErrorResponse } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";

const FILES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

// Kept as a file of our own (not inline) so a strict Content-Security-Policy can forbid inline scripts.
const INIT = `window.ui = SwaggerUIBundle({
  url: "/api/v1/openapi.json",
  dom_id: "#explorer",
  deepLinking: true,
  persistAuthorization: false,
  tryItOutEnabled: true,
});`;

export async function GET(_request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await context.params;
  if (file === "explorer-init.js") {
    return new Response(INIT, { headers: { "Content-Type": "text/javascript; charset=utf-8" } });
  }
  const type = FILES[file];
  if (!type) return toErrorResponse(new ApiError("not_found", `No explorer asset ${file}.`), newRequestId());
  const body = await readFile(path.join(swaggerUiPath(), file));
  return new Response(body, { headers: { "Content-Type": type, "Cache-Control": "public, max-age=86400" } });
}

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
