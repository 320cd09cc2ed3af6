import { pollDeviceLogin } from "@/lib/auth/create";
import { route } from "@/lib/http/route";
import { pollCliAuth } from "@/lib/schemas/auth";
import { otherMethods } from "@/lib/http/methods";

export const POST = route(pollCliAuth, ({ body }) => pollDeviceLogin(body.device_code));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
