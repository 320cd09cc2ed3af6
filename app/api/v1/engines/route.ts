import { engineConfig } from "@/lib/config/engines";
import { presentEngines } from "@/lib/engines";
import { route } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";
import { listEngines } from "@/lib/schemas/engines";

export const GET = route(listEngines, () => ({ items: presentEngines(engineConfig()) }));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
