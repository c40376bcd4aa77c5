// An independent verifier of a battle export (battle-service/export/v1), written from
// docs/VERIFYING.md alone, for browsers and Node 20: Web Crypto (crypto.subtle) only,
// SHA-256, HMAC-SHA-256 and Ed25519. verifyExport(text, {keys}) checks the hash chain
// (formats 1 and 2, sealed stubs), command boundaries, disputes' corrections against
// their rulings, every revealed die (seeds,
// sub-seeds, client seeds, rejection sampling), the head and the trailer's receipt,
// and names the first failure by version. The same order of checks as the document's.

const enc = new TextEncoder();
const GENESIS = "0".repeat(64);
const ALL = "all";

// ---- canonical JSON (VERIFYING.md, "Canonical JSON") ----------------------------------

function cmpCodePoints(a, b) {
  // Keys sort by Unicode code point (not UTF-16 unit, JavaScript's default).
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

export function canonicalJson(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return "[" + value.map(canonicalJson).join(",") + "]";
  const keys = Object.keys(value).sort(cmpCodePoints);
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonicalJson(value[k])).join(",") + "}";
}

// The exact text of each top-level member's value of one JSON object (the `data` of an
// event is hashed as the bytes the file holds, not re-encoded).
function rawMembers(text) {
  const out = {};
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const str = () => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return text.slice(start, i);
  };
  const skip = () => {
    ws();
    const c = text[i];
    if (c === '"') return str();
    const start = i;
    if (c === "{" || c === "[") {
      let depth = 0;
      do {
        const d = text[i];
        if (d === '"') {
          str();
          continue;
        }
        if (d === "{" || d === "[") depth++;
        if (d === "}" || d === "]") depth--;
        i++;
      } while (depth > 0 && i < text.length);
      return text.slice(start, i);
    }
    while (i < text.length && !",}] \t\r\n".includes(text[i])) i++;
    return text.slice(start, i);
  };
  ws();
  i++; // {
  for (;;) {
    ws();
    if (text[i] === "}" || i >= text.length) break;
    const key = JSON.parse(str());
    ws();
    i++; // :
    out[key] = skip().trim();
    ws();
    if (text[i] === ",") i++;
  }
  return out;
}

// ---- bytes and hashes ----------------------------------------------------------------

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");

function fromHex(text) {
  if (typeof text !== "string" || !/^(?:[0-9a-fA-F]{2})*$/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function fromB64(text) {
  const s = text.replace(/\s/g, "").replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(s + "=".repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

const sha256 = async (bytes) => hex(await crypto.subtle.digest("SHA-256", bytes));
const sha256Text = (text) => sha256(enc.encode(text));

async function hmacKey(seed) {
  return crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

// One server die: HMAC-SHA256(seed, "battle|version|index|client_seed|k"), first 8 bytes
// big-endian, accepted below floor(2^64 / sides) * sides, then mod sides + 1.
export async function deriveDie(key, battleId, version, index, clientSeed, sides) {
  return Number(await deriveDieBig(key, battleId, version, index, clientSeed, sides));
}

// The same as a BigInt: a die of more than 2^53 sides (the document's vector has one).
export async function deriveDieBig(key, battleId, version, index, clientSeed, sides) {
  const n = BigInt(sides);
  if (n < 1n) throw new Error("a die needs at least one side");
  const limit = ((1n << 64n) / n) * n;
  for (let k = 0; ; k++) {
    const mac = await crypto.subtle.sign("HMAC", key, enc.encode(`${battleId}|${version}|${index}|${clientSeed}|${k}`));
    const x = new DataView(mac).getBigUint64(0, false);
    if (x < limit) return (x % n) + 1n;
  }
}

// ---- the chain (VERIFYING.md, "The log and its hash chain") -------------------------

function header1(ev, rawData) {
  // Format 1: every field but hash and position, keys sorted, data verbatim.
  const parts = [
    ["actor", canonicalJson(ev.actor)],
    ["audience", JSON.stringify(ev.audience)],
    ["battle_id", JSON.stringify(ev.battle_id)],
    ["command_id", JSON.stringify(ev.command_id ?? null)],
    ["data", rawData],
    ["prev_hash", JSON.stringify(ev.prev_hash)],
    ["recorded_at", JSON.stringify(ev.recorded_at)],
  ];
  if (ev.salt != null) parts.push(["salt", JSON.stringify(ev.salt)]);
  parts.push(["type", JSON.stringify(ev.type)], ["version", JSON.stringify(ev.version)]);
  return "{" + parts.map(([k, v]) => `"${k}":${v}`).join(",") + "}";
}

function body2(ev, rawData) {
  const parts = [
    ["actor", canonicalJson(ev.actor)],
    ["battle_id", JSON.stringify(ev.battle_id)],
    ["command_id", JSON.stringify(ev.command_id ?? null)],
    ["command_version", JSON.stringify(ev.command_version)],
    ["data", rawData],
  ];
  // An event of a dispute's correction names it (VERIFYING.md, "Disputes' corrections").
  if (ev.dispute != null) parts.push(["dispute", JSON.stringify(ev.dispute)]);
  parts.push(["recorded_at", JSON.stringify(ev.recorded_at)]);
  if (ev.salt != null) parts.push(["salt", JSON.stringify(ev.salt)]);
  parts.push(["type", JSON.stringify(ev.type)]);
  return "{" + parts.map(([k, v]) => `"${k}":${v}`).join(",") + "}";
}

// An event's hash from its line's fields and the exact text of its `data`: format 2 when
// it has a command_version, else 1 (salted when it has a salt).
export async function eventHash(ev, rawData) {
  if (ev.command_version == null) return sha256Text(header1(ev, rawData));
  return link2(ev.audience, await bodyHash(ev, rawData), ev.prev_hash, ev.version);
}

export const bodyHash = (ev, rawData) => sha256Text(body2(ev, rawData));

export const commitmentOf = (seedHex) => sha256(fromHex(seedHex));

export { hmacKey, fromHex };

export const link2 = (audience, body, prevHash, version) =>
  sha256Text(canonicalJson({ audience, body, prev_hash: prevHash, version }));

function canSee(role, side, audience) {
  if (audience === ALL || role === "referee") return true;
  return role === "side" && side != null && audience === `side:${side}`;
}

// ---- dice (VERIFYING.md, "Verifiable dice") ------------------------------------------

function rollsIn(value, out = []) {
  // Every object with "kind": "roll", depth first in document order.
  if (Array.isArray(value)) value.forEach((v) => rollsIn(v, out));
  else if (value && typeof value === "object") {
    if (value.kind === "roll") out.push(value);
    Object.values(value).forEach((v) => rollsIn(v, out));
  }
  return out;
}

class Failure extends Error {
  constructor(version, reason) {
    super(`version ${version}: ${reason}`);
    this.version = version;
    this.reason = reason;
  }
}

class Dice {
  constructor(battleId) {
    this.own = battleId;
    this.spans = []; // [upto, battle_id] of an import, ascending
    this.commitments = new Map();
    this.seeds = new Map();
    this.subCommitments = new Map();
    this.subSeeds = new Map();
    this.sideSeeds = []; // [version, {side: seed}] after each ClientSeedSet
    this.seen = new Map();
    this.keys = new Map();
    this.checked = 0;
    this.pending = 0;
  }

  idAt(version) {
    for (const [upto, id] of this.spans) if (version <= upto) return id;
    return this.own;
  }

  subs(epoch, subs) {
    if (subs) {
      if (typeof subs !== "object") throw new TypeError();
      this.subCommitments.set(epoch, subs);
    }
  }

  async reveal(version, epoch, seedHex, committed, what) {
    const seed = fromHex(seedHex);
    if (seed === null) throw new Failure(version, `revealed ${what} of epoch ${epoch} is not hex`);
    if ((await sha256(seed)) !== committed)
      throw new Failure(version, `the ${what} revealed for epoch ${epoch} does not match its commitment ${committed}`);
    return seed;
  }

  async fact(version, type, d) {
    try {
      await this.fact1(version, type, d);
    } catch (e) {
      if (e instanceof Failure) throw e;
      throw new Failure(version, `the ${type} event is malformed`);
    }
  }

  async fact1(version, type, d) {
    if (type === "BattleCreated") {
      this.commitments.set(d.dice_epoch, d.dice_commitment);
      this.subs(d.dice_epoch, d.dice_sub_commitments);
      const spans = d.imported_from?.dice_ids;
      this.spans = Array.isArray(spans)
        ? spans.filter((s) => Number.isInteger(s?.upto) && typeof s.battle_id === "string").map((s) => [s.upto, s.battle_id])
        : [];
      this.spans.sort((a, b) => a[0] - b[0]);
    } else if (type === "DiceSeedRevealed") {
      const seed = await this.reveal(version, d.epoch, d.seed, this.commitments.get(d.epoch), "seed");
      this.seeds.set(d.epoch, seed);
      if (d.next_epoch != null) {
        this.commitments.set(d.next_epoch, d.next_commitment);
        this.subs(d.next_epoch, d.next_sub_commitments);
      }
    } else if (type === "DiceSubSeedRevealed") {
      const committed = this.subCommitments.get(d.epoch)?.[d.audience];
      const seed = await this.reveal(version, d.epoch, d.seed, committed, `sub-seed of ${d.audience}`);
      this.subSeeds.set(`${d.epoch}|${d.audience}`, seed);
    } else if (type === "DiceEpochStarted") {
      this.commitments.set(d.epoch, d.commitment);
      this.subs(d.epoch, d.sub_commitments);
    } else if (type === "ClientSeedSet") {
      const last = this.sideSeeds.length ? this.sideSeeds[this.sideSeeds.length - 1][1] : {};
      this.sideSeeds.push([version, { ...last, [String(d.side)]: String(d.seed) }]);
    }
  }

  sidesBefore(version) {
    let sides = {};
    for (const [v, s] of this.sideSeeds) if (v < version) sides = s;
    return sides;
  }

  usedSides(version, clientSeed) {
    if (typeof clientSeed !== "string") return false;
    const sides = this.sidesBefore(version);
    if (!Object.keys(sides).length) return true;
    let combined;
    try {
      combined = JSON.parse(clientSeed);
    } catch {
      return false;
    }
    const command = combined?.command;
    return typeof command === "string" && canonicalJson({ command, sides }) === clientSeed;
  }

  async key(seed) {
    const id = hex(seed);
    if (!this.keys.has(id)) this.keys.set(id, await hmacKey(seed));
    return this.keys.get(id);
  }

  async server(evVersion, roll, audience) {
    const values = roll.values;
    if (!Array.isArray(values)) throw new Failure(evVersion, "a server die is malformed");
    const { epoch, version, index } = roll;
    if (!this.commitments.has(epoch) || version == null || index == null)
      throw new Failure(evVersion, "a server die names no committed epoch");
    if (!Number.isInteger(version) || !Number.isInteger(index)) throw new Failure(evVersion, "a server die is malformed");
    const subs = this.subCommitments.get(epoch) || {};
    const stream = Object.keys(subs).length && audience !== ALL ? audience : ALL;
    let seed;
    if (stream === ALL) seed = this.seeds.get(epoch);
    else if (stream in subs) seed = this.subSeeds.get(`${epoch}|${stream}`);
    else throw new Failure(evVersion, `a server die for ${audience} names no committed sub-seed`);
    const used = roll.client_seed ?? "";
    if (!this.usedSides(version, used))
      throw new Failure(evVersion, `roll ${version}/${index} (${roll.purpose}) did not use the client seeds the sides had set`);
    for (let i = 0; i < values.length; i++) {
      const counter = `${stream}|${version}|${index + i}`;
      const die = JSON.stringify([epoch, roll.sides, values[i], used, roll.purpose]);
      const earlier = this.seen.get(counter);
      // A later event may quote a die whole: the same die, counted once.
      if (earlier && earlier[0] === die && earlier[1] < evVersion) continue;
      if (earlier || version > evVersion) throw new Failure(evVersion, `server die (${version}, ${index + i}) reuses a roll counter`);
      this.seen.set(counter, [die, evVersion]);
      if (seed === undefined) {
        this.pending++;
        continue;
      }
      if (!Number.isInteger(roll.sides) || roll.sides < 1) throw new Failure(evVersion, "a server die is malformed");
      const want = await deriveDie(await this.key(seed), this.idAt(version), version, index + i, used, roll.sides);
      if (want !== values[i]) {
        const source = stream === ALL ? "seed" : `sub-seed of ${stream}`;
        throw new Failure(evVersion, `die ${index + i} of roll ${version} (${roll.purpose}) shows ${values[i]}, but the revealed ${source} gives ${want}`);
      }
      this.checked++;
    }
  }
}

// ---- receipts (VERIFYING.md, "Receipts") ----------------------------------------------

export async function importKeys(list) {
  // {key_id: CryptoKey}, each key's id recomputed (first 16 bytes of its SHA-256, hex).
  const out = new Map();
  for (const text of list) {
    let raw;
    try {
      raw = fromB64(text);
    } catch {
      continue;
    }
    if (raw.length !== 32) continue;
    const id = (await sha256(raw)).slice(0, 32);
    try {
      out.set(id, await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]));
    } catch {
      out.set(id, null); // this runtime has no Ed25519: named below
    }
  }
  return out;
}

export const receiptText = (r) =>
  canonicalJson({ battle_id: r.battle_id, head_hash: r.head_hash, type: "battle-service/receipt/v1", version: r.version });

async function checkReceipt(r, battleId, hashes, last, keys) {
  if (!r) return "no receipt";
  if (r.battle_id !== battleId) return `the receipt is for battle ${r.battle_id}, not ${battleId}`;
  const why = await checkSignature(r, keys);
  if (why) return why;
  if (r.version > last) return `the service signed version ${r.version}, but the file ends at version ${last}: it was cut short`;
  if (!hashes.has(r.version)) return `the trailer's receipt names version ${r.version}, not the header's head`;
  if (hashes.get(r.version) !== r.head_hash) return `the service signed another head at version ${r.version}: the log was rewritten`;
  return null;
}

// Whether a key given signed the receipt {battle_id, version, head_hash, key_id,
// signature}: null if it did, else why not.
async function checkSignature(r, keys) {
  if (!keys.has(r.key_id)) return `signed with key ${r.key_id}, which is not among the keys given`;
  const key = keys.get(r.key_id);
  if (key === null) return "this browser cannot check Ed25519 signatures";
  let sig;
  try {
    sig = fromB64(r.signature);
  } catch {
    return "the signature is not base64url";
  }
  if (!(await crypto.subtle.verify({ name: "Ed25519" }, key, sig, enc.encode(receiptText(r)))))
    return "the signature does not verify: the receipt was altered, or not issued by this service";
  return null;
}

// Where the history comes from, as the battle's first event (hashed) records it: a fork's
// parent and ancestry; an import's original battle, whose receipt is checked against the
// keys given, and the keys that signed the history which are not among them.
async function historyOf(events, keys) {
  const first = events.find((e) => e.ev.version === 1 && e.ev.sealed !== true);
  const d = first && first.ev.type === "BattleCreated" ? first.ev.data : null;
  const out = {};
  if (!d || typeof d !== "object") return out;
  if (d.forked_from) out.forked_from = {battle_id: d.forked_from, version: d.forked_at, head_hash: d.forked_head_hash};
  if (Array.isArray(d.ancestry) && d.ancestry.length) out.ancestry = d.ancestry;
  const imp = d.imported_from;
  if (imp && typeof imp === "object") {
    const receipt = {battle_id: imp.battle_id, version: imp.version, head_hash: imp.head_hash,
      key_id: imp.receipt_key_id, signature: imp.receipt_signature};
    const why = await checkSignature(receipt, keys);
    out.imported_from = {battle_id: imp.battle_id, version: imp.version, head_hash: imp.head_hash,
      receipt_key_id: imp.receipt_key_id, receipt: why === null ? "verified" : why};
    const signers = [...(Array.isArray(imp.signers) ? imp.signers : []), imp.receipt_key_id];
    out.unvouched_signers = [...new Set(signers.filter((k) => typeof k === "string" && k && !keys.has(k)))];
  }
  return out;
}

// ---- the whole file -------------------------------------------------------------------

async function chain(events, header) {
  // The first broken link: [version, reason], or null. Also collects what the dice need.
  let prev = GENESIS;
  let expected = 1;
  let fmt = 0;
  let command = null;
  const hashes = new Map();
  for (const { ev, raw } of events) {
    const v = ev.version;
    if (v !== expected) return { brk: [v, `version ${v} follows ${expected - 1}: the log has a gap`] };
    if (ev.prev_hash !== prev) return { brk: [v, `prev_hash of event ${v} does not match the hash of event ${v - 1}`] };
    const sealed = ev.sealed === true;
    const this_ = sealed ? (ev.body != null ? 2 : 1) : ev.command_version != null ? 2 : 1;
    if (fmt && this_ !== fmt) return { brk: [v, `event ${v} is of chain format ${this_}, the event before it of format ${fmt}`] };
    fmt = this_;
    if (sealed) {
      if (ev.body != null && (await link2(ev.audience, ev.body, ev.prev_hash, v)) !== ev.hash)
        return { brk: [v, `sealed event ${v} does not hash to its recorded hash: its audience or body was changed`] };
      command = null;
    } else {
      const cv = ev.command_version;
      if (cv != null && cv !== v) {
        if (cv > v || cv < 1) return { brk: [v, `event ${v} names the command beginning at version ${cv}, which is not at or before it`] };
        if (command !== null && command !== cv)
          return { brk: [v, `event ${v} names the command beginning at version ${cv}, but the event before it belongs to the command beginning at version ${command}`] };
      }
      // Format 1 hashes no dispute: a name there is no part of what the hash proves.
      if (cv == null && ev.dispute != null) return { brk: [v, `event ${v} names dispute ${ev.dispute} but is of chain format 1, whose hash does not cover it`] };
      command = cv ?? null;
      const actual = await eventHash(ev, raw);
      if (actual !== ev.hash) return { brk: [v, `event ${v} does not hash to its recorded hash: it was changed after it was written`] };
    }
    hashes.set(v, ev.hash);
    prev = ev.hash;
    expected++;
  }
  return { brk: null, hashes, last: expected - 1, lastHash: prev };
}

function readableStub(events, reader) {
  if (!["referee", "side", "observer"].includes(reader?.role)) return null;
  for (const { ev } of events)
    if (ev.sealed === true && canSee(reader.role, reader.side ?? null, ev.audience))
      return [ev.version, `event ${ev.version} is sealed with audience ${JSON.stringify(ev.audience)}, which the export's reader may see`];
  return null;
}

function misplacedDie(events) {
  // Every server die counts from the first event of its command (chain format 2); a die
  // first seen elsewhere passes only as a quote whose draw may lie in a sealed event.
  const sealed = events.filter((e) => e.ev.sealed === true).map((e) => e.ev.version);
  const seen = new Set();
  for (const { ev, rolls } of events) {
    if (ev.sealed === true) continue;
    for (const roll of rolls.filter((r) => r.source === "server")) {
      const key = `${roll.version}|${roll.index}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const cv = ev.command_version;
      if (cv == null || roll.version === cv) continue;
      if (Number.isInteger(roll.version) && roll.version < cv && sealed.some((s) => s >= roll.version && s < ev.version)) continue;
      return [ev.version, `server die (${roll.version}, ${roll.index}) is counted from version ${roll.version}, but event ${ev.version} belongs to the command that begins at version ${cv}`];
    }
  }
  return null;
}

function rulingOf(data) {
  // What events.dispute_audit decodes a DisputeResolved's data as, or null if it cannot.
  if (data === null || typeof data !== "object" || Array.isArray(data)) return null;
  const { dispute_id: id, correcting_versions: correcting = [], linked = false } = data;
  if (typeof id !== "string" || typeof linked !== "boolean") return null;
  if (!Array.isArray(correcting) || !correcting.every((v) => Number.isInteger(v))) return null;
  return { id, correcting, linked };
}

function disputeBreak(events) {
  // A dispute's correction and its ruling agree (VERIFYING.md, "Disputes' corrections"):
  // every DisputeResolved says which dispute it settles and which versions correct it;
  // each version it lists comes before it and, when the ruling is `linked`, names its
  // dispute if whole; every whole event naming a dispute is listed by its DisputeResolved,
  // or, when that is not whole, the event right after the last whole event naming it is
  // sealed. The lowest version that fails.
  const sealed = new Set(events.filter((e) => e.ev.sealed === true).map((e) => e.ev.version));
  const whole = events.filter((e) => e.ev.sealed !== true).map((e) => e.ev);
  const names = new Map(whole.filter((ev) => ev.dispute != null).map((ev) => [ev.version, ev.dispute]));
  const lastNamed = new Map();
  for (const [v, id] of names) lastNamed.set(id, Math.max(v, lastNamed.get(id) ?? 0));
  const settled = new Map();
  const found = [];
  for (const ev of whole) {
    if (ev.type !== "DisputeResolved") continue;
    const at = ev.version;
    const ruling = rulingOf(ev.data);
    if (ruling === null) {
      found.push([at, `event ${at} is a DisputeResolved ${MALFORMED}`]);
      continue;
    }
    const { id, correcting, linked } = ruling;
    if (!settled.has(id)) settled.set(id, [at, correcting]);
    for (const v of correcting) {
      const named = names.get(v);
      if (!(v >= 1 && v < at)) found.push([at, `the DisputeResolved of dispute ${id} (event ${at}) lists correcting version ${v}, which is not before it`]);
      else if (linked && !sealed.has(v) && named !== id) found.push([v, `event ${v} is among the correcting versions of dispute ${id} (event ${at}) but ${named == null ? "names no dispute" : `names dispute ${named}`}`]);
    }
  }
  for (const [v, id] of names) {
    const ruled = settled.get(id);
    if (ruled && !ruled[1].includes(v)) found.push([v, `event ${v} names dispute ${id}, whose DisputeResolved (event ${ruled[0]}) does not list it`]);
    else if (!ruled && !sealed.has(lastNamed.get(id) + 1)) found.push([v, `event ${v} names dispute ${id}, which no DisputeResolved after it settles`]);
  }
  found.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return found.length ? found[0] : null;
}

const MALFORMED =
  "whose data does not say which dispute it settles (dispute_id, a string) and which " +
  "versions correct it (correcting_versions, a list of integers; linked, true or false)";

const FACTS = new Set(["BattleCreated", "DiceSeedRevealed", "DiceSubSeedRevealed", "DiceEpochStarted", "ClientSeedSet"]);

/**
 * Verify an export's text. `keys`: the service's public keys (base64url of 32 bytes) as
 * the caller knows them (GET /keys); without them, the header's own, which proves the
 * file holds together but not who wrote it (`keys_from: "file"`).
 * `parent`: a fork's parent's export (its text): it must verify too, with the same keys,
 * and hold at the fork's version the hash the fork was made at; else the fork fails at
 * version 1, the event that makes the claim (VERIFYING.md, "Forks and imports").
 * Returns {ok, failed_version, reason, events, sealed, dice_checked, dice_pending,
 * keys_from, commands}.
 */
export async function verifyExport(text, { keys = null, parent = null } = {}) {
  const lines = text.split("\n").filter((l) => l.trim());
  const fail = (version, reason, extra = {}) => ({ ok: false, failed_version: version, reason, ...extra });
  let header;
  try {
    header = JSON.parse(lines[0] ?? "");
  } catch {
    return fail(null, "line 1 is not an export header");
  }
  if (header?.format !== "battle-service/export/v1") return fail(null, "not a battle-service/export/v1 file");
  const events = [];
  let trailer = null;
  for (let n = 1; n < lines.length; n++) {
    let ev;
    try {
      ev = JSON.parse(lines[n]);
    } catch {
      return fail(null, `line ${n + 1} is not JSON`);
    }
    if (trailer) return fail(null, `line ${n + 1} follows the trailer's receipt`);
    if (ev.receipt && ev.version == null) {
      trailer = ev.receipt;
      continue;
    }
    const raw = ev.sealed === true ? null : rawMembers(lines[n]).data ?? "null";
    events.push({ ev, raw, rolls: ev.sealed === true ? [] : rollsIn(ev.data) });
  }
  const sealedCount = events.filter((e) => e.ev.sealed === true).length;
  const stats = { events: events.length, sealed: sealedCount, keys_from: keys ? "caller" : "file", commands: commandsOf(events) };
  const done = (failure, dice) => ({
    ok: !failure,
    failed_version: failure ? failure[0] : null,
    reason: failure ? failure[1] : null,
    dice_checked: dice?.checked ?? 0,
    dice_pending: dice?.pending ?? 0,
    ...stats,
  });
  const c = await chain(events, header);
  const brk = c.brk || readableStub(events, header.reader) || misplacedDie(events) || disputeBreak(events);
  if (brk) return done(brk);
  const first = events.find((e) => e.ev.sealed !== true);
  const dice = new Dice(first ? first.ev.battle_id : "");
  try {
    for (const { ev } of events) if (ev.sealed !== true && FACTS.has(ev.type)) await dice.fact(ev.version, ev.type, ev.data);
    for (const { ev, rolls } of events) for (const roll of rolls) if (roll.source === "server") await dice.server(ev.version, roll, ev.audience);
  } catch (e) {
    if (e instanceof Failure) return done([e.version, e.reason], dice);
    throw e;
  }
  if (c.last !== header.version || c.lastHash !== header.head_hash)
    return done([header.version, `the header names head version ${header.version}, the file ends at version ${c.last}`], dice);
  const keyed = await importKeys(keys ?? (header.public_keys || []).map((k) => k.public_key));
  const why = await checkReceipt(trailer, header.battle_id, c.hashes, c.last, keyed);
  if (why) return done([trailer ? trailer.version : header.version, `receipt (trailer): ${why}`], dice);
  // Verified; vouched for only when the receipts were checked against keys the caller
  // gave, and no one else signed the history (an import of a file signed elsewhere).
  const history = await historyOf(events, keyed);
  if (parent != null) {
    const why = await parentBreak(history.forked_from, parent, keys);
    if (why) return { ...done([1, why], dice), history, parent: why };
  }
  const foreign = header.origin?.origin === "not-verified" || (history.unvouched_signers || []).length > 0;
  return {...done(null, dice), history, vouched: !!keys && !foreign};
}

// Why a parent's export does not vouch for a fork's start (null: it does).
async function parentBreak(fork, parentText, keys) {
  if (!fork || typeof fork.battle_id !== "string" || !Number.isInteger(fork.version) || typeof fork.head_hash !== "string")
    return "the battle is not a fork (its BattleCreated names no forked_from)";
  const lines = parentText.split("\n").filter((l) => l.trim());
  let header;
  try {
    header = JSON.parse(lines[0] ?? "");
  } catch {
    return "the parent's export has no header";
  }
  if (header?.battle_id !== fork.battle_id)
    return `the fork names parent ${fork.battle_id}, but the parent's export is of battle ${header?.battle_id}`;
  const checked = await verifyExport(parentText, { keys });
  if (!checked.ok) return `the parent's export does not verify: version ${checked.failed_version}: ${checked.reason}`;
  let held = null;
  let last = 0;
  for (const line of lines.slice(1)) {
    const ev = JSON.parse(line);
    if (ev.version == null) continue;
    last = ev.version;
    if (ev.version === fork.version) held = ev.hash;
  }
  if (held === null || fork.version > last)
    return `the fork was made at the parent's version ${fork.version}, but the parent's export ends at version ${last}`;
  if (held !== fork.head_hash)
    return `the fork was made at the parent's version ${fork.version} with head hash ${fork.head_hash.slice(0, 16)}…, but the parent's event ${fork.version} has hash ${held.slice(0, 16)}…`;
  return null;
}

function commandsOf(events) {
  // The command boundaries the file marks: [first version, last version] of each command.
  const out = [];
  for (const { ev } of events) {
    const cv = ev.sealed === true ? null : ev.command_version;
    const last = out[out.length - 1];
    if (cv != null && last && last[0] === cv) last[1] = ev.version;
    else if (cv != null) out.push([cv, ev.version]);
  }
  return out;
}
