import { startDeviceLogin } from "@/lib/auth/create";
import { route } from "@/lib/http/route";
import { startCliAuth } from "@/lib/schemas/auth";
import { otherMethods } from "@/lib/http/methods";

export const POST = route(startCliAuth, ({ body }) => startDeviceLogin(body.client_name));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
