// `defineEndpoint`: every operation of the API declared once, as data. The same object drives
// the route wrapper (validation), the OpenAPI document and the CLI's client.
import type { z } from "zod";
import type { ErrorCode } from "./error-codes";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export type EndpointDefinition = {
  method: HttpMethod;
  /** Path relative to /api/v1, with `{param}` placeholders, exactly as in the spec's table. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: "bearer" | "none";
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Absent for 204 responses. */
  response?: z.ZodType;
  status: 200 | 201 | 202 | 204;
  /** A second success status some requests get (POST /visibility-analyses with `judge`: 202, queued), with the same body schema. */
  otherStatus?: { status: 200 | 201 | 202; description: string };
  /** False only for GET /version, which an outdated CLI must still be able to read (spec 9). */
  cliVersionGate?: false;
  /** Error codes this operation can answer besides those every operation can. */
  errors?: ErrorCode[];
  /** Another media type the success response may have, as a query asks (`format=csv`): a text, streamed. */
  alternative?: { mediaType: string; description: string };
};

export function defineEndpoint<const E extends EndpointDefinition>(endpoint: E): E {
  return endpoint;
}
