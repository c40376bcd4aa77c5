// verifyWebhook on real deliveries: the service signs each with the endpoint's secret
// (Standard Webhooks); a receiver here takes them and the library checks them.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import {
  BattleClient,
  WebhookVerificationError,
  signWebhook,
  verifyWebhook,
} from "../dist/index.js";
import { SETUP, ruling, startServer, until } from "./server.mjs";

let server;
let receiver;
const received = [];
before(async () => {
  server = await startServer({ BATTLE_WEBHOOK_POLL_SECONDS: "0.1" });
  receiver = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise((ok) => receiver.listen(0, "127.0.0.1", ok));
});
after(async () => {
  await new Promise((ok) => receiver?.close(ok));
  await server?.stop();
});

test("a real delivery verifies; a changed body, another secret or an old time do not", async () => {
  const anonymous = new BattleClient({ baseUrl: server.baseUrl });
  const integration = await anonymous.createIntegration("table");
  const vtt = new BattleClient({ baseUrl: server.baseUrl, key: integration.key });
  const hook = await vtt.createWebhook({
    url: `http://127.0.0.1:${receiver.address().port}/hook`,
    event_types: ["BattleCreated", "RulingRecorded"],
  });
  const { battle } = await vtt.createBattle({ ruleset: "quickstart", setup: SETUP });
  await battle.command(ruling(1));
  await until("two deliveries", () => received.length >= 2, 20_000);

  const { headers, body } = received[0];
  // the raw bytes, and the same as text; headers as Node gives them, and as a Headers
  const payload = await verifyWebhook(hook.secret, headers, body);
  assert.equal(payload.type, "battle.event");
  assert.equal(payload.data.battle_id, battle.id);
  assert.equal(payload.data.event.type, "BattleCreated");
  const asHeaders = new Headers(Object.entries(headers).map(([k, v]) => [k, String(v)]));
  assert.deepEqual(await verifyWebhook(hook.secret, asHeaders, body.toString()), payload);
  // each delivery verifies
  for (const r of received) await verifyWebhook(hook.secret, r.headers, r.body);

  const changed = body.toString().replace("BattleCreated", "BattleCreatex");
  await assert.rejects(verifyWebhook(hook.secret, headers, changed), WebhookVerificationError);
  const other = "whsec_" + Buffer.alloc(24, 7).toString("base64");
  await assert.rejects(verifyWebhook(other, headers, body), WebhookVerificationError);
  const stamp = Number(headers["webhook-timestamp"]);
  await assert.rejects(
    verifyWebhook(hook.secret, headers, body, { now: stamp + 301 }),
    /too old/,
  );
  await assert.rejects(
    verifyWebhook(hook.secret, headers, body, { now: stamp - 301 }),
    /in the future/,
  );
  assert.ok(await verifyWebhook(hook.secret, headers, body, { now: stamp + 299 }));
  const { "webhook-signature": _, ...unsigned } = headers;
  await assert.rejects(verifyWebhook(hook.secret, unsigned, body), /missing/);
});

test("one of several signatures (a secret being rotated) is enough", async () => {
  const secret = "whsec_" + Buffer.alloc(24, 1).toString("base64");
  const old = "whsec_" + Buffer.alloc(24, 2).toString("base64");
  const now = Math.floor(Date.now() / 1000);
  const body = '{"type":"battle.event"}';
  const headers = {
    "webhook-id": "msg_1",
    "webhook-timestamp": String(now),
    "webhook-signature": `${await signWebhook(old, "msg_1", now, body)} ${await signWebhook(secret, "msg_1", now, body)}`,
  };
  assert.deepEqual(await verifyWebhook(secret, headers, body), { type: "battle.event" });
  assert.deepEqual(await verifyWebhook(old, headers, body), { type: "battle.event" });
  // another id is another message
  await assert.rejects(verifyWebhook(secret, { ...headers, "webhook-id": "msg_2" }, body));
});
