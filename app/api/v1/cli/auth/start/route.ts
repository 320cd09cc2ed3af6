import { startDeviceLogin } from "@/lib/auth/device";
import { route } from "@/lib/http/route";
import { startCliAuth } from "@/lib/schemas/accounts";

export const POST = route(startCliAuth, ({ body }) => startDeviceLogin(body.client_name));
