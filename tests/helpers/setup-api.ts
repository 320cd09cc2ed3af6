// Runs before every api and pg test file: responses are checked against their schemas, and
// the configuration is read afresh from the environment the test file sets.
import { beforeEach } from "vitest";
import { resetConfig } from "@/lib/config/env";

process.env.GEOSCOPE_VALIDATE_RESPONSES = "true";
beforeEach(() => resetConfig());
