"""Issue 35: how the table page writes a prompt's answer (service/desk/table/table_assets/
rules.js, a module without imports), run in Node: each command takes only its own fields
and each field its type. The cases are those the browser tests found sent wrong: a warfare
order given every choice of its prompt (`Rest` with a `facing`), a phased Slip's `effects`
(listed as joined indexes, sent as numbers) and skirmish's `move_target` (a boolean); and
the fields a card takes beyond one value per choice: tactical's surprise ruling (the
characters ticked, the reason typed) and a wall's sections (its squares, in order)."""

from __future__ import annotations

import json
from typing import Any

from tests.support.node_tools import ROOT, in_module

RULES = ROOT / "service" / "desk" / "table" / "table_assets" / "rules.js"


def _build(ruleset: str, prompt: dict[str, Any], type_: str, picked: dict[str, Any]) -> Any:
    return in_module(
        RULES,
        f"console.log(JSON.stringify(m.buildCommand({json.dumps(ruleset)}, "
        f"{json.dumps(prompt)}, {json.dumps(type_)}, {json.dumps(picked)}, null)));",
    )


def test_a_warfare_order_takes_only_its_own_choices() -> None:
    prompt = {"subject": "a1", "side": "a", "choices": {"facing": ["N", "E"]}}
    picked = {"facing": "E"}
    assert _build("warfare", prompt, "Rest", picked) == {"type": "Rest", "unit": "a1"}
    assert _build("warfare", prompt, "Face", picked) == {
        "type": "Face",
        "unit": "a1",
        "facing": "E",
    }


def test_a_phased_slips_effects_are_sent_as_numbers() -> None:
    prompt = {"subject": "r1", "side": "red", "choices": {"choice": ["s1"], "effects": ["0,2"]}}
    got = _build("phased", prompt, "ChooseEffects", {"choice": "s1", "effects": "0,2"})
    assert got == {"type": "ChooseEffects", "choice": "s1", "effects": [0, 2]}


def test_skirmish_move_target_is_a_boolean() -> None:
    prompt = {"side": "north", "choices": {"army": ["n1"], "move_target": ["true", "false"]}}
    got = _build("skirmish", prompt, "DeclareAction", {"army": "n1", "move_target": "false"})
    assert got == {"type": "DeclareAction", "army": "n1", "move_target": False}


def test_a_surprise_ruling_takes_the_characters_ticked_and_its_reason() -> None:
    prompt = {"commands": ["DeclareSurprise"], "choices": {"surprised": ["a1", "b1", "b2"]}}
    picked = {"surprised": ["b1", "b2"], "reason": "they slept on watch"}
    got = _build("tactical", prompt, "DeclareSurprise", picked)
    assert got == {"type": "DeclareSurprise", "surprised": ["b1", "b2"],
                   "reason": "they slept on watch"}  # fmt: skip
    nobody = _build("tactical", prompt, "DeclareSurprise", {"surprised": [], "reason": "r"})
    assert nobody == {"type": "DeclareSurprise", "surprised": [], "reason": "r"}


def test_a_walls_sections_are_its_squares_in_order() -> None:
    prompt = {"subject": "aria", "choices": {"weapon": ["stone"], "sections": ["2,6", "3,5"]}}
    picked = {"weapon": "stone", "sections": ["2,6", "3,6", "4,6"]}
    got = _build("tactical", prompt, "Attack", picked)
    assert got == {"type": "Attack", "character": "aria", "weapon": "stone",
                   "sections": [[2, 6], [3, 6], [4, 6]]}  # fmt: skip
    # the JSON editor's draft gives the first origin listed alone
    one = _build("tactical", prompt, "Attack", {"weapon": "stone", "sections": "3,5"})
    assert one["sections"] == [[3, 5]]
