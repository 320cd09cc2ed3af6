// The query string as the client sent it. Next.js parses a request's query into an object and
// writes it back before a route handler sees the URL, which drops a parameter named `__proto__`
// (`?__proto__=1` reached the handler as no parameter at all, so an unknown parameter was not
// refused on the built server). The request guard (./request-guard.ts) hands such a query over in
// this header, after removing any the client sent; parseQuery reads it when present.
export const RAW_QUERY_HEADER = "x-geoscope-raw-query";

/** Whether Next.js would lose a parameter of this query string (`?…`) on its way to the route. */
export function nextDropsParameter(search: string): boolean {
  return search.includes("proto") && new URLSearchParams(search).has("__proto__");
}

/** The request's URL with the query string the client sent. */
export function requestQueryUrl(request: Request): URL {
  const url = new URL(request.url);
  const raw = request.headers.get(RAW_QUERY_HEADER);
  if (raw !== null) url.search = raw;
  return url;
}
