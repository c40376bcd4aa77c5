// tsc emits no declaration file it was given: copy src/schema.d.ts beside dist/types.d.ts,
// which imports it.
import { copyFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
copyFileSync(join(here, "src", "schema.d.ts"), join(here, "dist", "schema.d.ts"));
