import { config } from "@/lib/config/env";
import { route } from "@/lib/http/route";
import { getVersion } from "@/lib/schemas/service";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(getVersion, () => ({ min_cli_version: config().MIN_CLI_VERSION }));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
