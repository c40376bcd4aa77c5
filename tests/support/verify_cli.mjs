// The JavaScript verifier (service/desk/viewer_assets/verify.js) as a command line, for
// the tests that hold it against `battle-service verify`:
//   node tests/support/verify_cli.mjs FILE [--key BASE64URL_KEY_FILE]
// prints the report as JSON; exit 0 when the file verifies, 1 when it does not.
import { readFileSync } from "node:fs";
import { verifyExport } from "../../service/desk/viewer_assets/verify.js";

const [file, ...rest] = process.argv.slice(2);
const at = rest.indexOf("--key");
const keys = at >= 0 ? [readFileSync(rest[at + 1], "utf8").trim()] : null;
const report = await verifyExport(readFileSync(file, "utf8"), { keys });
process.stdout.write(JSON.stringify(report) + "\n");
process.exit(report.ok ? 0 : 1);
