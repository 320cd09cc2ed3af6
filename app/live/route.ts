// Live progress for the browser's research pages, as server-sent events (decisions.md "Research
// in the browser"). `GET /live?ids=rq_…,fo_…&since=<signature>` with the browser session: the
// stream says `changed` when the objects' progress differs from what the page showed (at once,
// if it already does), and `done` when all have finished. It is woken by the same change
// notifications as the API's `wait` long-poll (in-process, and LISTEN/NOTIFY on PostgreSQL), so
// nothing polls the database in a loop; a stream lives at most a few minutes and the browser
// reconnects on its own.
import { sessionPrincipal } from "@/lib/auth/session";
import { ensureListening, localEmitter } from "@/lib/changes/notify";
import { ApiError } from "@/lib/http/errors";
import { newRequestId, toErrorResponse } from "@/lib/http/respond";
import { isFollowable, progressOfAll } from "@/lib/research/progress";

export const dynamic = "force-dynamic";

const MAX_IDS = 100;
const STREAM_LIFETIME_MS = 5 * 60_000;
const HEARTBEAT_MS = 15_000;
/** Notifications closer together than this are read once (a fanout's runs end in bursts). */
const SETTLE_MS = 250;

function idsOf(url: URL): string[] {
  const raw = url.searchParams.get("ids") ?? "";
  const ids = [...new Set(raw.split(",").filter(Boolean))];
  if (ids.length === 0) throw new ApiError("invalid_request", "ids: name at least one run, batch, fanout or analysis to follow");
  if (ids.length > MAX_IDS) throw new ApiError("invalid_request", `ids: at most ${MAX_IDS} objects per stream`);
  const bad = ids.find((id) => !isFollowable(id));
  if (bad) throw new ApiError("invalid_request", `ids: ${JSON.stringify(bad.slice(0, 60))} is not a run, batch, fanout or analysis id`);
  return ids;
}

export async function GET(request: Request): Promise<Response> {
  const requestId = newRequestId();
  try {
    const principal = await sessionPrincipal();
    if (!principal) throw new ApiError("unauthenticated", "Sign in to follow progress.");
    const url = new URL(request.url);
    const ids = idsOf(url);
    const since = url.searchParams.get("since") ?? "";
    await ensureListening();
    // Read once before streaming: an object outside the person's workspaces answers 404 here.
    let last = await progressOfAll(principal, ids);
    const encoder = new TextEncoder();
    const events = localEmitter();
    let closed = false;
    let cleanup = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let timer: ReturnType<typeof setTimeout> | null = null;
        const send = (chunk: string) => {
          if (!closed) controller.enqueue(encoder.encode(chunk));
        };
        const close = () => {
          if (closed) return;
          closed = true;
          cleanup();
          controller.close();
        };
        const report = () => {
          if (last.signature !== since) send(`event: changed\ndata: ${JSON.stringify({ signature: last.signature })}\n\n`);
          if (last.finished) {
            send("event: done\ndata: {}\n\n");
            close();
          }
        };
        const reread = () => {
          timer = null;
          progressOfAll(principal, ids).then(
            (now) => {
              if (now.signature === last.signature && !now.finished) return;
              last = now;
              report();
            },
            () => close(),
          );
        };
        const onChange = () => {
          if (!timer && !closed) timer = setTimeout(reread, SETTLE_MS);
        };
        for (const id of ids) events.on(id, onChange);
        const heartbeat = setInterval(() => send(": still here\n\n"), HEARTBEAT_MS);
        const lifetime = setTimeout(close, STREAM_LIFETIME_MS);
        const onAbort = () => close();
        request.signal.addEventListener("abort", onAbort);
        cleanup = () => {
          for (const id of ids) events.off(id, onChange);
          clearInterval(heartbeat);
          clearTimeout(lifetime);
          if (timer) clearTimeout(timer);
          request.signal.removeEventListener("abort", onAbort);
        };
        send("retry: 3000\n\n");
        // A change between the page's render and this read: say so at once.
        if (last.signature !== since || last.finished) report();
      },
      cancel() {
        closed = true;
        cleanup();
      },
    });
    return new Response(body, {
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store, no-transform",
        "X-Accel-Buffering": "no",
        "X-Request-Id": requestId,
      },
    });
  } catch (error) {
    return toErrorResponse(error, requestId, request);
  }
}
