// The one wrapper every /api/v1 handler goes through, in this order: CLI version gate (426),
// bearer authentication (401), input parsing (400/404), the handler, the response (checked
// against the endpoint's schema when GEOSCOPE_VALIDATE_RESPONSES is on), and the error envelope.
import type { z } from "zod";
import { authenticate } from "../auth/authenticate";
import type { Principal } from "../auth/principal";
import { config } from "../config/env";
import type { EndpointDefinition } from "../schemas/endpoint";
import { parseBody, parseParams, parseQuery, readJsonBody } from "./input";
import { requestQueryUrl } from "./raw-query";
import { type JsonText, newRequestId, respond, type StreamedText, toErrorResponse } from "./respond";
import { checkCliVersion } from "./version-gate";

type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

export type HandlerContext<E extends EndpointDefinition> = {
  params: Out<E["params"]>;
  query: Out<E["query"]>;
  body: E["body"] extends z.ZodType ? z.output<E["body"]> : undefined;
  principal: E["auth"] extends "bearer" ? Principal : null;
  request: Request;
  requestId: string;
};

export type HandlerResult<E extends EndpointDefinition> = E["response"] extends z.ZodType
  ? z.input<E["response"]> | JsonText<z.input<E["response"]>> | (E["alternative"] extends object ? StreamedText : never)
  : void;

type NextRouteContext = { params?: Promise<Record<string, string | string[]>> };

/** Carries, on each handler route() makes, the endpoint it was made with. */
const ENDPOINT = Symbol.for("geoscope.endpoint");

/** The endpoint a route file's export serves, if route() made it (the registry test checks the binding). */
export function endpointOf(handler: unknown): EndpointDefinition | undefined {
  return typeof handler === "function" && ENDPOINT in handler ? (handler[ENDPOINT] as EndpointDefinition) : undefined;
}

export function route<const E extends EndpointDefinition>(
  endpoint: E,
  handler: (ctx: HandlerContext<E>) => Promise<HandlerResult<E>> | HandlerResult<E>,
): (request: Request, context?: NextRouteContext) => Promise<Response> {
  const serve = async (request: Request, context?: NextRouteContext): Promise<Response> => {
    const requestId = newRequestId();
    try {
      const settings = config();
      if (endpoint.cliVersionGate !== false) checkCliVersion(request.headers.get("user-agent"), settings.MIN_CLI_VERSION);
      const principal = endpoint.auth === "bearer" ? await authenticate(request) : null;
      const params = endpoint.params ? parseParams(endpoint.params, (await context?.params) ?? {}, endpoint.path) : {};
      const query = parseQuery(endpoint.query, requestQueryUrl(request));
      const body = endpoint.body
        ? parseBody(endpoint.body, await readJsonBody(request, settings.MAX_BODY_BYTES))
        : undefined;
      const ctx = { params, query, body, principal, request, requestId } as HandlerContext<E>;
      const result = await handler(ctx);
      return respond(endpoint, result, requestId, settings.GEOSCOPE_VALIDATE_RESPONSES);
    } catch (error) {
      return toErrorResponse(error, requestId, request);
    }
  };
  return Object.assign(serve, { [ENDPOINT]: endpoint });
}
