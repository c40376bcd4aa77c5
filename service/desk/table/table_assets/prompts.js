// What the battle waits for, as cards: a prompt's reason, a select per choice field and a
// button per command type that answers it. Cards the viewer may answer are live; the
// referee sees the players' prompts too, dashed, without buttons. A live card also holds
// its command as JSON to edit and send: some fields are free values no prompt can list
// (a skirmish leader or army, a phased outcome's damage), so a button alone could not
// answer them.

import {clear, h} from "/viewer/assets/dom.js";

function choiceSelect(field, values) {
  const options = values.map((v) => h("option", {value: v, text: v}));
  return h("label", {}, [`${field} `, h("select", {"data-field": field}, options)]);
}

/** The card's command as JSON, drafted by `write.draft(prompt, type)`, to edit and send. */
function rawEditor(prompt, write, kept) {
  const text = h("textarea", {"data-raw": prompt.id, rows: 4, spellcheck: "false"});
  text.value = kept !== undefined ? kept : JSON.stringify(write.draft(prompt, prompt.commands[0]));
  const sendIt = h("button", {type: "button", "data-send-raw": prompt.id, text: "Send as written"});
  sendIt.addEventListener("click", () => write.send(text.value));
  return h("details", {class: "raw", open: kept !== undefined ? "open" : null}, [
    h("summary", {text: "Write the command (JSON)"}), text, sendIt,
  ]);
}

function card(prompt, actionable, onCommand, write, kept) {
  const title = prompt.role === "referee" ? "referee" : `side ${prompt.side || "any"}`;
  const who = prompt.subject ? ` · ${prompt.subject}` : "";
  const node = h("div", {
    class: "prompt" + (actionable ? "" : " waiting"),
    "data-prompt": prompt.id, "data-role": prompt.role, "data-side": prompt.side || "",
    "data-subject": prompt.subject || "", "data-optional": prompt.optional ? "true" : "false",
  }, [
    h("p", {}, [h("strong", {text: `${title}${who}: `}), prompt.reason]),
    prompt.rule ? h("p", {class: "rule", text: `rule ${prompt.rule}`}) : null,
  ]);
  if (!actionable) return node;
  for (const [field, values] of Object.entries(prompt.choices || {})) {
    node.append(choiceSelect(field, values));
  }
  const buttons = h("div", {class: "commands"});
  for (const command of prompt.commands) {
    const button = h("button", {type: "button", "data-command": command, text: command});
    button.addEventListener("click", () => {
      const picked = {};
      for (const select of node.querySelectorAll("select[data-field]")) {
        picked[select.dataset.field] = select.value;
      }
      onCommand(prompt, command, picked);
    });
    buttons.append(button);
  }
  node.append(buttons);
  if (write) node.append(rawEditor(prompt, write, kept));
  return node;
}

/** Draw `awaiting` into `root`: the ones `mine(prompt)` says this page answers with
 * buttons, the others as what the table waits for. */
export function renderPrompts(root, awaiting, mine, onCommand, write) {
  // what a player is writing in an open editor survives the redraw a live change makes
  const kept = new Map();
  for (const open of root.querySelectorAll("details.raw[open] textarea[data-raw]")) {
    kept.set(open.dataset.raw, open.value);
  }
  clear(root);
  if (!awaiting.length) root.append(h("p", {class: "hint", text: "Nothing for now."}));
  for (const prompt of awaiting) {
    root.append(card(prompt, mine(prompt), onCommand, write, kept.get(prompt.id)));
  }
}
