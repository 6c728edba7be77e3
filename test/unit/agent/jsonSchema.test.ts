import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { toJsonSchema } from "../../../src/core/tools/jsonSchema";

test("zod → compact JSON Schema: no $schema, defaults optional, no safe-int bounds", () => {
  const schema = z.object({
    file_path: z.string().describe("Path"),
    offset: z.number().int().min(0).default(0),
    mode: z.enum(["a", "b"]).optional(),
  });
  assert.deepEqual(toJsonSchema(schema), {
    type: "object",
    properties: {
      file_path: { type: "string", description: "Path" },
      offset: { default: 0, type: "integer", minimum: 0 },
      mode: { type: "string", enum: ["a", "b"] },
    },
    required: ["file_path"],
  });
});
