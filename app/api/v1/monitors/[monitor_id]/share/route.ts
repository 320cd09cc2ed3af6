// GET/POST/DELETE /monitors/{monitor_id}/share (lib/shares/routes.ts); the other methods answer 405.
import { shareRoutes } from "@/lib/shares/routes";

export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = shareRoutes("monitor");
