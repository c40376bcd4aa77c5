// Checks the test vectors of docs/VERIFYING.md ("Writing your own verifier") with the
// JavaScript verifier's own functions: prints one line per vector that does not hold,
// and exits 1 if any; 0 when all hold. Run by tests/e2e/test_js_verifier.py.
import { readFileSync } from "node:fs";
import * as v from "../../service/desk/viewer_assets/verify.js";

const doc = readFileSync(new URL("../../docs/VERIFYING.md", import.meta.url), "utf8");
const vectors = Object.fromEntries(
  [...doc.matchAll(/<!-- vector: (\w+) -->\s*```json\n([\s\S]*?)```/g)].map((m) => [m[1], JSON.parse(m[2])]),
);
const enc = new TextEncoder();
const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
const failures = [];
const check = (name, what, got, want) => {
  if (got !== want) failures.push(`${name}: ${what} is ${got}, the document says ${want}`);
};

const c = vectors.canonical;
const text = v.canonicalJson(c.value);
check("canonical", "the text", text, c.canonical);
check("canonical", "the UTF-8 bytes", hex(enc.encode(text)), c.utf8_hex);
check("canonical", "its sha256", hex(await crypto.subtle.digest("SHA-256", enc.encode(text))), c.sha256);

check("seed", "the commitment", await v.commitmentOf(vectors.seed.seed), vectors.seed.commitment);

for (const name of ["die", "die_rejected"]) {
  const d = vectors[name];
  const key = await v.hmacKey(v.fromHex(d.seed));
  const value = await v.deriveDieBig(key, d.battle_id, d.version, d.index, d.client_seed, BigInt(d.sides));
  check(name, "the value", String(value), d.value);
  for (const draw of d.draws) {
    const mac = await crypto.subtle.sign("HMAC", key, enc.encode(draw.message));
    check(name, `the HMAC of ${draw.message}`, hex(mac), draw.hmac);
  }
}

const cs = vectors.client_seed;
check("client_seed", "the client seed", v.canonicalJson({ command: cs.command, sides: cs.sides }), cs.client_seed);

const ch = vectors.chain;
const { salt, command_version, ...plain } = ch.event;
check("chain", "the format 1 hash", await v.eventHash(plain, ch.event.data), ch.format1_hash_without_salt);
check("chain", "the salted format 1 hash", await v.eventHash({ ...plain, salt }, ch.event.data), ch.format1_hash_with_salt);
check("chain", "the format 2 body", await v.bodyHash(ch.event, ch.event.data), ch.format2_body);
check("chain", "the format 2 hash", await v.eventHash(ch.event, ch.event.data), ch.format2_hash);

const co = vectors.correction;
check("correction", "the body", await v.bodyHash(co.event, co.event.data), co.body);
check("correction", "the hash", await v.eventHash(co.event, co.event.data), co.hash);
check("correction", "the hash without dispute", await v.eventHash(ch.event, ch.event.data), co.hash_without_dispute);

const r = vectors.receipt;
check("receipt", "the signed text", v.receiptText(r), r.signed_text);
const keys = await v.importKeys([r.public_key]);
check("receipt", "the key id", [...keys.keys()][0], r.key_id);
const sig = Uint8Array.from(atob(r.signature.replace(/-/g, "+").replace(/_/g, "/") + "=="), (ch) => ch.charCodeAt(0));
const ok = await crypto.subtle.verify({ name: "Ed25519" }, keys.get(r.key_id), sig, enc.encode(r.signed_text));
check("receipt", "the signature verifies", ok, true);

const missing = ["canonical", "seed", "die", "die_rejected", "client_seed", "chain", "correction", "receipt"].filter((n) => !(n in vectors));
for (const n of missing) failures.push(`${n}: no such vector in the document`);
for (const f of failures) console.log(f);
process.exit(failures.length ? 1 : 0);
