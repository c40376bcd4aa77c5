// What the battle waits for, as cards: a prompt's reason, a select per choice field and a
// button per command type that answers it. Cards the viewer may answer are live; the
// referee sees the players' prompts too, dashed, without buttons.

import {clear, h} from "/viewer/assets/dom.js";

function choiceSelect(field, values) {
  const options = values.map((v) => h("option", {value: v, text: v}));
  return h("label", {}, [`${field} `, h("select", {"data-field": field}, options)]);
}

function card(prompt, actionable, onCommand) {
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
  return node;
}

/** Draw `awaiting` into `root`: the ones `mine(prompt)` says this page answers with
 * buttons, the others as what the table waits for. */
export function renderPrompts(root, awaiting, mine, onCommand) {
  clear(root);
  if (!awaiting.length) root.append(h("p", {class: "hint", text: "Nothing for now."}));
  for (const prompt of awaiting) root.append(card(prompt, mine(prompt), onCommand));
}
