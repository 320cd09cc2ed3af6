// Runs before every api and pg test file (the api project's through setup-api.ts): responses are
// checked against their schemas, and the configuration is read afresh from the environment the
// test file sets.
import { beforeEach } from "vitest";
import { resetConfig } from "@/lib/config/env";
import { installJobs } from "@/lib/work/local-driver";
import { registeredJobs } from "@/lib/work/registry";

process.env.GEOSCOPE_VALIDATE_RESPONSES = "true";
// The jobs the server installs at start (lib/work/start.ts); GEOSCOPE_TEST_JOBS is read per test file, at its first job.
installJobs(registeredJobs());
beforeEach(() => resetConfig());
