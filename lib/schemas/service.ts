// About the service itself (spec 9).
import { z } from "zod";
import { defineEndpoint } from "./endpoint";

export const ServerVersion = z
  .object({
    min_cli_version: z.string().describe("The oldest geoscope CLI this server answers; older ones get 426 cli_outdated."),
  })
  .meta({ id: "ServerVersion", examples: [{ min_cli_version: "0.1.0" }] });

export const getVersion = defineEndpoint({
  method: "GET",
  path: "/version",
  operationId: "getVersion",
  summary: "The oldest CLI version this server answers",
  description:
    "Needs no credential and is never refused for the CLI's version, so an outdated CLI can read what to upgrade to. Every other endpoint answers 426 `cli_outdated` to a `geoscope-cli/<version>` User-Agent older than `min_cli_version`.",
  tags: ["Service"],
  auth: "none",
  cliVersionGate: false,
  response: ServerVersion,
  status: 200,
});
