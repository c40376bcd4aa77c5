// The referee's panel: one link per side (a player key minted for it, in the fragment),
// revocable; undo, a ruling, any command as JSON; the replay viewer.

import {clear, h} from "/viewer/assets/dom.js";

const $ = (id) => document.getElementById(id);

/** A player's link: this page with the battle, the key (and the dice mode) in the
 * fragment, which no request carries. */
export function playerLink(battleId, key, tableDice) {
  const fragment = new URLSearchParams({battle: battleId, key});
  if (tableDice) fragment.set("dice", "table");
  return `${window.location.origin}/table#${fragment}`;
}

/** Draw the links: every key the battle has (no secrets), with the link of those minted on
 * this page (a key is shown once). */
export async function renderLinks(api, sides, fresh, tableDice, act) {
  const listed = await api.listKeys();
  const root = clear($("links"));
  for (const side of sides) {
    const keys = listed.filter((k) => k.side === side);
    const item = h("li", {"data-side": side}, [h("strong", {text: `side ${side}: `})]);
    for (const k of keys) {
      if (k.revoked_at) {
        item.append(h("div", {"data-key-id": k.key_id, class: "revoked", text: `${k.label} (revoked)`}));
        continue;
      }
      const secret = fresh.get(k.key_id);
      const revoke = h("button", {type: "button", "data-revoke": k.key_id, text: "Revoke"});
      revoke.addEventListener("click", () => act(() => api.revokeKey(k.key_id)));
      item.append(h("div", {"data-key-id": k.key_id, "data-label": k.label}, [
        `${k.label} `,
        secret ? h("input", {readonly: "readonly", class: "link", value: playerLink(api.id, secret, tableDice)}) : "",
        revoke,
      ]));
    }
    const mint = h("button", {type: "button", "data-mint": side, text: keys.length ? "New link" : "Make a link"});
    mint.addEventListener("click", () => act(async () => {
      const made = await api.mintKey(side, `player of ${side}` + (keys.length ? ` (${keys.length + 1})` : ""));
      fresh.set(made.key_id, made.key);
    }));
    item.append(mint);
    root.append(item);
  }
}

/** Wire the referee's buttons once: `send(command)` sends as the referee. */
export function wireReferee(api, send, act) {
  $("referee").hidden = false;
  const viewer = new URLSearchParams({battle: api.id, key: api.key});
  $("replay").href = `/viewer#${viewer}`;
  $("undo").addEventListener("click", () => send({
    type: "Undo", to_version: Number($("undo-to").value), reason: $("undo-reason").value || "undo",
  }));
  $("record-ruling").addEventListener("click", () => send({
    type: "RecordRuling", ruling: $("ruling").value, reason: $("ruling-reason").value || "the table's call",
  }));
  $("send-free").addEventListener("click", () => act(() => send(JSON.parse($("free-command").value))));
}
