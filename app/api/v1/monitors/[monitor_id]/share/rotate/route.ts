// POST /monitors/{monitor_id}/share/rotate (lib/shares/routes.ts); the other methods answer 405.
import { shareRotateRoutes } from "@/lib/shares/routes";

export const { POST, GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = shareRotateRoutes("monitor");
