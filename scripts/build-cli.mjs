// `npm run build:cli`: the geoscope CLI as a package of its own in dist/cli/. esbuild bundles
// cli/main.ts with lib/schemas, zod, semver and the MCP SDK's server into one ESM file (geoscope.mjs) that imports
// nothing but Node's builtins, with the version built in; beside it a package.json with no
// dependencies, a README and the bundled packages' licenses. `npm run pack:cli` then packs it
// into dist/geoscope-cli-<version>.tgz, which `npm install -g` installs with no registry.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "dist", "cli");
const rootPkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const NAME = "geoscope-cli";

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// `geoscope mcp` bundles the MCP SDK's server. The SDK's Server imports its ajv-based JSON Schema
// validator, used only for elicitation, which geoscope never asks for (it passes its own
// validator); ajv's code generator carries `require("ajv/dist/runtime/…")` in its text, so the
// bundle takes cli/mcp/no-json-schema-validator.ts in its place.
const withoutAjv = {
  name: "geoscope-without-ajv",
  setup(b) {
    b.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}@modelcontextprotocol${path.sep}sdk${path.sep}`)
        ? { path: path.join(root, "cli", "mcp", "no-json-schema-validator.ts") }
        : undefined,
    );
  },
};

const result = await build({
  absWorkingDir: root,
  entryPoints: ["cli/main.ts"],
  outfile: path.join(out, "geoscope.mjs"),
  bundle: true,
  packages: "bundle",
  platform: "node",
  target: "node20",
  format: "esm",
  banner: { js: "#!/usr/bin/env node" },
  define: { __GEOSCOPE_CLI_VERSION__: JSON.stringify(rootPkg.version) },
  legalComments: "eof",
  plugins: [withoutAjv],
  metafile: true,
  logLevel: "warning",
});

// The file must stand alone: every import left in it is a Node builtin.
const [output] = Object.values(result.metafile.outputs);
const builtins = new Set(builtinModules);
const outside = output.imports.filter((i) => !(i.external && (i.path.startsWith("node:") || builtins.has(i.path))));
if (outside.length) {
  console.error(`build-cli: geoscope.mjs imports ${[...new Set(outside.map((i) => i.path))].join(", ")}; it must import only Node builtins`);
  process.exit(1);
}
chmodSync(path.join(out, "geoscope.mjs"), 0o755);

// The licenses of the packages bundled in (zod, semver, the MCP SDK and its parts), which their terms ask to ship with them.
const bundled = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match && !bundled.has(match[1])) bundled.set(match[1], path.join(root, "node_modules", match[1]));
}
const notices = [...bundled].sort(([a], [b]) => a.localeCompare(b)).map(([name, dir]) => {
  const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  const license = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license"].map((f) => {
    try {
      return readFileSync(path.join(dir, f), "utf8").trim();
    } catch {
      return null;
    }
  }).find(Boolean);
  if (!license) throw new Error(`build-cli: no LICENSE file in ${dir}`);
  return `${name}@${pkg.version} (${pkg.license})\n\n${license}\n`;
});
writeFileSync(path.join(out, "THIRD-PARTY-LICENSES.txt"), `geoscope.mjs bundles these packages:\n\n${notices.join("\n---\n\n")}`);

const pkg = {
  name: NAME,
  version: rootPkg.version,
  description: rootPkg.description,
  ...(rootPkg.license ? { license: rootPkg.license } : {}),
  type: "module",
  bin: { geoscope: "geoscope.mjs" },
  files: ["geoscope.mjs", "README.md", "THIRD-PARTY-LICENSES.txt"],
  engines: { node: rootPkg.engines.node },
};
writeFileSync(path.join(out, "package.json"), JSON.stringify(pkg, null, 2) + "\n");

writeFileSync(
  path.join(out, "README.md"),
  `# ${NAME}

\`geoscope\`, the command-line client of the geoscope research API, as one file with no
dependencies (Node ${rootPkg.engines.node}). Built from the geoscope repository by
\`npm run pack:cli\`, which writes \`dist/${NAME}-${rootPkg.version}.tgz\`.

\`\`\`sh
npm install -g ./${NAME}-${rootPkg.version}.tgz
export GEOSCOPE_BASE_URL=https://geoscope.example.com/api/v1   # default http://localhost:3000/api/v1
geoscope login
geoscope prompt "best crm for a startup" --project pr_… --wait
geoscope --help
geoscope mcp          # the API as MCP tools over stdio, for an agent's mcpServers: {"command": "geoscope", "args": ["mcp"]}
\`\`\`

The commands, options, configuration and exit codes are those of the repository's docs/guide.md,
"The CLI" section, and \`geoscope mcp\` its "MCP server" section. To upgrade, build the package
again from an up-to-date checkout and install it the same way.
`,
);

const size = output.bytes;
console.log(`build-cli: dist/cli/geoscope.mjs (${Math.round(size / 1024)} KiB, ${NAME} ${rootPkg.version}; bundles ${[...bundled.keys()].join(", ")})`);
