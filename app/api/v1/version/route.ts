import { config } from "@/lib/config/env";
import { route } from "@/lib/http/route";
import { getVersion } from "@/lib/schemas/service";

export const GET = route(getVersion, () => ({ min_cli_version: config().MIN_CLI_VERSION }));
