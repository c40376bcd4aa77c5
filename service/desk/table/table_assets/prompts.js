// What the battle waits for, as cards: a prompt's reason, its fields (a select per choice,
// or the checkboxes, list of squares or text field fields.js draws where the command takes
// those) and a button per command type that answers it. Cards the viewer may answer are
// live; the referee sees the players' prompts too, dashed, without buttons. A live card
// also holds its command as JSON to edit and send: some fields are free values no prompt
// can list (a skirmish leader or army, a phased outcome's damage), so a button alone could
// not answer them.

import {clear, h} from "/viewer/assets/dom.js";
import {cardFields, forget, forgetBut} from "/table/assets/fields.js";

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

function card(prompt, actionable, onCommand, write, shape, kept) {
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
  const fields = cardFields(prompt, shape.kind, shape.texts(prompt), shape.problem, shape.board);
  node.append(...fields.nodes);
  const buttons = h("div", {class: "commands"});
  for (const command of prompt.commands) {
    const button = h("button", {type: "button", "data-command": command, text: command});
    // once the service took it, what was typed for it is done with
    button.addEventListener("click", () => onCommand(prompt, command, fields.read(), () => forget(prompt)));
    buttons.append(button);
  }
  node.append(buttons);
  if (write) node.append(rawEditor(prompt, write, kept));
  return node;
}

/** Draw `awaiting` into `root`: the ones `mine(prompt)` says this page answers with
 * buttons, the others as what the table waits for. `shape` says how a card's fields are
 * taken: `kind(field)`, `texts(prompt)` and `problem(text)` (fields.js). */
export function renderPrompts(root, awaiting, mine, onCommand, write, shape) {
  // what a player is writing in an open editor survives the redraw a live change makes
  const kept = new Map();
  for (const open of root.querySelectorAll("details.raw[open] textarea[data-raw]")) {
    kept.set(open.dataset.raw, open.value);
  }
  forgetBut(awaiting);
  clear(root);
  if (!awaiting.length) root.append(h("p", {class: "hint", text: "Nothing for now."}));
  for (const prompt of awaiting) {
    root.append(card(prompt, mine(prompt), onCommand, write, shape, kept.get(prompt.id)));
  }
}
