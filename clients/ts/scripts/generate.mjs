// `npm run generate [-- <document>]`: src/schema.d.ts from the OpenAPI document, by
// openapi-typescript. The document is ../../openapi/openapi.json (the app's, as
// `battle-service openapi` prints it) unless given: a file, or a running server's
// http://host:port/schema/openapi.json. tests/e2e/test_ts_library.py checks the committed
// file is what this makes of the committed document.
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const source = process.argv[2] ?? join(here, "..", "..", "openapi", "openapi.json");
const bin = join(here, "node_modules", ".bin", "openapi-typescript");
execFileSync(
  bin,
  // --default-non-nullable=false: a field with a default may be left out of a request
  [source, "--default-non-nullable=false", "-o", join(here, "src", "schema.d.ts")],
  { stdio: "inherit", shell: process.platform === "win32" },
);
