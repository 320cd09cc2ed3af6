/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded from node_modules at run time rather than bundled: the Prisma adapters and PGlite
  // carry WASM and native pieces, and swagger-ui-dist locates its files by its own folder.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "@prisma/schema-engine-wasm",
    "pg",
    "swagger-ui-dist",
  ],
  poweredByHeader: false,
  // NEXT_DIST_DIR builds beside the default .next (two builds of one tree at once, as parallel
  // benchmarks and test runs need); `next start` must be given the same value.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Share links (app/s): `/s/<token>.json` is served by a route handler beside the page, and every
  // share response, page or JSON, found or not, is unindexed, sends no referrer and is not stored.
  async rewrites() {
    return [{ source: "/s/:token([^/]+)\\.json", destination: "/s/:token/json" }];
  },
  async headers() {
    return [
      {
        source: "/s/:path*",
        headers: [
          { key: "X-Robots-Tag", value: "noindex, nofollow" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "Cache-Control", value: "no-store" },
        ],
      },
    ];
  },
  typescript: {
    // `npm test` type-checks the whole tree with tsc; the build does not repeat it.
    ignoreBuildErrors: true,
  },
};

export default nextConfig;
