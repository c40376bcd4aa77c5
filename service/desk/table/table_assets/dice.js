// Table dice: the page asks the player for the die the service names (`next_die`), as
// "roll a d20 for morale check: b", and answers what they type.

const $ = (id) => document.getElementById(id);

/** Ask for `die` ({sides, count, purpose, subject}); resolves to the value(s) typed. */
export function askDie(die) {
  const form = $("dice"), input = $("die-value");
  const count = die.count || 1;
  const what = count > 1 ? `${count}d${die.sides}` : `a d${die.sides}`;
  const forWhom = die.subject && !String(die.purpose).includes(die.subject) ? ` (${die.subject})` : "";
  $("die-text").textContent = `Roll ${what} for ${die.purpose}${forWhom}` +
    (count > 1 ? ": type each value, separated by spaces" : "");
  form.dataset.sides = String(die.sides);
  form.dataset.count = String(count);
  form.hidden = false;
  input.value = "";
  input.focus();
  return new Promise((resolve) => {
    form.onsubmit = (e) => {
      e.preventDefault();
      const values = input.value.trim().split(/[\s,]+/).map(Number);
      const ok = values.length === count &&
        values.every((v) => Number.isInteger(v) && v >= 1 && v <= die.sides);
      if (!ok) {
        $("die-text").textContent = `A d${die.sides} shows 1 to ${die.sides}: ` +
          `type ${count} value${count > 1 ? "s" : ""}.`;
        return;
      }
      form.hidden = true;
      form.onsubmit = null;
      resolve(count > 1 ? values : values[0]);
    };
  });
}
