import { pollDeviceLogin } from "@/lib/auth/device";
import { route } from "@/lib/http/route";
import { pollCliAuth } from "@/lib/schemas/accounts";

export const POST = route(pollCliAuth, ({ body }) => pollDeviceLogin(body.device_code));
