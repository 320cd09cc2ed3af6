// The JSON Schema validator `geoscope mcp` gives the MCP SDK's Server. The SDK validates JSON
// Schemas only for elicitation (asking the user for input), which geoscope never does, so this one
// refuses to be used. It also stands in for the SDK's ajv provider in the standalone bundle
// (scripts/build-cli.mjs): ajv compiles schemas into code whose text carries
// `require("ajv/dist/runtime/…")`, which a one-file package must not contain.
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

export class NoJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(_schema: JsonSchemaType): JsonSchemaValidator<T> {
    return () => {
      throw new Error("geoscope mcp validates no JSON Schema: it asks the client for no input (elicitation)");
    };
  }
}

/** The name the SDK's server imports from its ajv provider, which the bundle replaces by this module. */
export { NoJsonSchemaValidator as AjvJsonSchemaValidator };
