// How a prompt's answer is written, per ruleset: which command field names the prompt's
// subject, which choice fields a command takes, which fields are lists, numbers or
// booleans, and how a move names its square. Only the shapes of the commands (from the
// OpenAPI document): no rule of any game is decided here; `awaiting` and `reach` say what
// may be sent.

const TACTICAL_FIELDS = {
  Attack: ["weapon", "target", "direction", "square", "sections"], Grapple: ["target"],
  BullRush: ["target"], Perceive: ["target"], Charge: ["target", "to"], Reload: ["item"],
  FreeAction: ["action", "item"], Save: ["condition"], Help: ["ally"], Stunned: ["lose"],
  React: ["reaction", "sta"], Move: ["mode", "stand_up"], OpportunityAttack: [], EndTurn: [],
  Rest: [], RollInitiative: [],
};

// warfare: a unit's orders name the unit, a champion's the champion, the referee's calls none
const WARFARE_SUBJECT = {
  EndTurn: null, StartRound: null, ForceMoraleCheck: null, ApplyCondition: null,
  RemoveCondition: null, PassChampion: "champion", ResolveChampionAction: "champion",
  JoinUnit: "champion",
};

// warfare's prompts list one set of choices for all their orders (a unit's [Move, Face,
// Rest] lists `facing`): each order takes only its own fields
const WARFARE_FIELDS = {
  Face: ["facing"], Attack: ["target"], Engage: ["target"], Retaliate: ["target"],
  Pursue: ["shattered"], PlaceReserve: ["to"], JoinUnit: ["unit"], Disengage: ["spared"],
  ApplyCondition: ["unit", "condition"], RemoveCondition: ["unit", "condition"],
  ForceMoraleCheck: ["unit"], ResolveChampionAction: ["action", "effect"],
  Move: [], Rest: [], EndTurn: [], StartRound: [], PassChampion: [], Concede: [],
};

const HINTS = {
  tactical: {
    subject: () => "character",
    fields: (cmd) => TACTICAL_FIELDS[cmd],
    moves: {Move: "to"},
    pairs: ["to", "square"], // "x,y"
    pairLists: ["sections"], // a wall: its squares, the first (the origin) one of those listed
    several: ["surprised"], // any of those listed, as a list (none: nobody)
    texts: {DeclareSurprise: ["reason"]}, // the ruling's reason, in words
  },
  quickstart: {
    subject: (cmd) => (cmd === "MoveSquad" ? "squad" : null),
    moves: {MoveSquad: "xy"},
  },
  warfare: {
    subject: (cmd) => (cmd in WARFARE_SUBJECT ? WARFARE_SUBJECT[cmd] : "unit"),
    sideField: {EndTurn: "side"},
    fields: (cmd) => WARFARE_FIELDS[cmd],
    moves: {Move: "to"},
    pairs: ["to"],
  },
  phased: {
    subject: (cmd) => (cmd === "DeclareAction" ? "combatant" : null),
    sideField: {EndDeclarations: "side"},
    // a Slip's `effects` are listed as the indexes to pick, joined: "0,2"
    intLists: ["effects"],
    moves: {},
  },
  skirmish: {
    subject: (cmd) => (cmd === "MoveArmy" ? "army" : null),
    moves: {MoveArmy: "xy"},
  },
};

const LISTS = new Set(["squads", "targets", "effects", "spared"]);
const BOOLS = new Set(["watchtower", "stand_up", "move_target"]);
const INTS = new Set(["sta", "x", "y", "damage"]);

function hints(ruleset) {
  return HINTS[ruleset] || {subject: () => null, moves: {}};
}

/** The move command types of `ruleset` (a square of the subject's reach answers them). */
export function isMove(ruleset, command) {
  return command in hints(ruleset).moves;
}

/** How a card takes the choice `field` of `ruleset`: "one" of those listed, "several"
 * (any of them, a list) or "squares" (a list of squares, the first one of those listed). */
export function choiceKind(ruleset, field) {
  const h = hints(ruleset);
  if ((h.several || []).includes(field)) return "several";
  if ((h.pairLists || []).includes(field)) return "squares";
  return "one";
}

/** The free text fields the commands answering `prompt` take (a ruling's reason). */
export function textFields(ruleset, prompt) {
  const texts = hints(ruleset).texts || {};
  return [...new Set(prompt.commands.flatMap((cmd) => texts[cmd] || []))];
}

const pair = (text) => text.split(",").map(Number);

// `text`: what the card gives for `field`, a string, or a list where the field is taken
// as several values (fields.js)
function value(h, field, text) {
  if ((h.several || []).includes(field)) return Array.isArray(text) ? [...text] : [text];
  if ((h.pairLists || []).includes(field)) return (Array.isArray(text) ? text : [text]).map(pair);
  if ((h.intLists || []).includes(field)) return text.split(",").filter((x) => x !== "").map(Number);
  if (LISTS.has(field)) return [text];
  if (BOOLS.has(field)) return text === "true";
  if (INTS.has(field)) return Number(text);
  if ((h.pairs || []).includes(field)) return pair(text);
  return text;
}

/** The command answering `prompt` with `type`, the values picked for its choices and
 * typed in its text fields (field -> text, or a list of texts), and for a move the square
 * picked ([x, y]). */
export function buildCommand(ruleset, prompt, type, picked, square) {
  const h = hints(ruleset);
  const out = {type};
  const subjectField = h.subject(type);
  if (subjectField && prompt.subject) out[subjectField] = prompt.subject;
  const sideField = (h.sideField || {})[type];
  if (sideField && prompt.side) out[sideField] = prompt.side;
  const fields = [...((h.fields && h.fields(type)) || Object.keys(prompt.choices || {})),
    ...((h.texts || {})[type] || [])];
  for (const field of fields) {
    if (picked[field] !== undefined && picked[field] !== "") out[field] = value(h, field, picked[field]);
  }
  if (square) {
    if (h.moves[type] === "to") out.to = square;
    else [out.x, out.y] = square;
  }
  return out;
}
