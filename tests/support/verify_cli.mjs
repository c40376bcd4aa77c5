// The JavaScript verifier (service/desk/viewer_assets/verify.js) as a command line, for
// the tests that hold it against `battle-service verify`:
//   node tests/support/verify_cli.mjs FILE [--key BASE64URL_KEY_FILE] [--parent PARENT_FILE]
// prints the report as JSON; exit 0 when the file verifies and is vouched for (its
// receipts checked against the key given, its history signed by it), 3 when it verifies
// but is not vouched for, 1 when it does not verify: as `battle-service verify`.
import { readFileSync } from "node:fs";
import { verifyExport } from "../../service/desk/viewer_assets/verify.js";

const [file, ...rest] = process.argv.slice(2);
const at = rest.indexOf("--key");
const keys = at >= 0 ? [readFileSync(rest[at + 1], "utf8").trim()] : null;
const p = rest.indexOf("--parent");
const parent = p >= 0 ? readFileSync(rest[p + 1], "utf8") : null;
const report = await verifyExport(readFileSync(file, "utf8"), { keys, parent });
process.stdout.write(JSON.stringify(report) + "\n");
process.exit(report.ok ? (report.vouched ? 0 : 3) : 1);
