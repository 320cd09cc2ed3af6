// Prisma 7 reads its paths and connection from here (`prisma generate`, and `prisma migrate
// deploy` where Prisma's engine binaries can be downloaded). The app itself never reads this
// file: lib/db/client.ts and lib/db/migrate.ts use the same paths and DATABASE_URL directly.
import { defineConfig } from "prisma/config";

const url = process.env.DATABASE_URL;

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  // Only when set: `generate` needs no database, and `env("DATABASE_URL")` would throw without one.
  ...(url ? { datasource: { url } } : {}),
});
