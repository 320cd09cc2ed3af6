// The interactive API explorer (Swagger UI), with its assets served by this app from the
// swagger-ui-dist package: nothing is loaded from a CDN.
import { otherMethods } from "@/lib/http/methods";

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>geoscope API explorer</title>
  <link rel="stylesheet" href="/api/v1/docs/assets/swagger-ui.css" />
  <style>body { margin: 0; } .topbar { display: none; }</style>
</head>
<body>
  <div id="explorer"></div>
  <script src="/api/v1/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/v1/docs/assets/explorer-init.js"></script>
</body>
</html>`;

export function GET(): Response {
  return new Response(PAGE, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
