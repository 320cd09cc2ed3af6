// Paths Next.js cannot percent-decode (`/api/v1/projects/%ZZ`, `%C3%28`): it throws while matching
// the route, before any of ours runs, and answers a bare 500. The request guard (./request-guard.ts)
// takes each undecodable segment literally before Next.js reads the path, and the route then
// answers as for any other id.

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path with every segment that does not percent-decode (a `%` starting no escape, or escapes
 * that are not UTF-8) escaped once more (`%` as `%25`), so it decodes to the text as sent; null
 * when every segment decodes already.
 */
export function literalPath(pathname: string): string | null {
  const segments = pathname.split("/");
  if (segments.every(decodes)) return null;
  return segments.map((segment) => (decodes(segment) ? segment : segment.replaceAll("%", "%25"))).join("/");
}

/** A path as the client meant it, for messages: decoded where it decodes, else as sent. */
export function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
