"""What a combat event (or the referee's ruling on one of its saves) does, collected as it
happens: random selections with their dice, sub-rolls, saves and checks, the effects
applied, the referee's prompts and what waits for a ruling or a choice (seed 004, Combat
Events).

Saves and checks are d20 + modifier >= the combatant's value for that save or check (the
setup's `saves`, `checks`, an item's `saves`); with no value in the setup the test waits
for the referee (`RuleCheck`), its modifier recorded for the referee. A save may be made
against a combatant (its `source`: Knock Down's fallen combatant); Lucky Break and Lucky
Opening modify a combatant's saves, not an item's ("Characters Save"). What follows a
result is named by a continuation key, so a ruling given later continues exactly as a roll
would have.
"""

from __future__ import annotations

from typing import Literal

from domain.dice import Dice
from domain.rulesets.phased.events import CheckRecord, Selection, SubRoll
from domain.rulesets.phased.model import Applied, Pending, Prompt, State

__all__ = ["DIRECTIONS", "Outcome", "Result"]

Result = Literal["success", "glancing", "fail"]

DIRECTIONS: dict[str, tuple[tuple[str, int, int], ...]] = {
    "d8": (
        ("N", 0, -1),
        ("NE", 1, -1),
        ("E", 1, 0),
        ("SE", 1, 1),
        ("S", 0, 1),
        ("SW", -1, 1),
        ("W", -1, 0),
        ("NW", -1, -1),
    ),
    "d4": (("N", 0, -1), ("E", 1, 0), ("S", 0, 1), ("W", -1, 0)),
}


class Outcome:
    """The record of one combat event or ruling, built as its dice are rolled."""

    def __init__(self, state: State, dice: Dice, subject: str | None = None) -> None:
        self.state = state
        self.dice = dice
        # the side (or combatant) the event's dice are for, as table dice name it; a
        # save or check names its own combatant
        self.subject = subject
        self.round = state.round
        self.next_id = state.counter
        self.selections: list[Selection] = []
        self.sub_rolls: list[SubRoll] = []
        self.tests: list[CheckRecord] = []
        self.applied: list[Applied] = []
        self.prompts: list[Prompt] = []
        self.pending: list[Pending] = []

    def new_id(self) -> str:
        self.next_id += 1
        return f"p{self.next_id}"

    def select(self, what: str, candidates: list[str]) -> str:
        """Select a random `what` among `candidates` (a server die when several)."""
        if len(candidates) == 1:
            self.selections.append(
                Selection(what=what, candidates=tuple(candidates), die=None, chosen=candidates[0])
            )
            return candidates[0]
        die = self.dice.roll(len(candidates), f"combat event: random {what}", subject=self.subject)
        chosen = candidates[die.value - 1]
        self.selections.append(
            Selection(what=what, candidates=tuple(candidates), die=die, chosen=chosen)
        )
        return chosen

    def sub_roll(self, what: str, sides: int, names: dict[int, str], possible: set[str]) -> str:
        """Roll 1d`sides` for `what`; a result that cannot occur is re-rolled (recorded)."""
        while True:
            die = self.dice.roll(sides, f"combat event: {what}", subject=self.subject)
            result = names.get(die.value, str(die.value))
            ok = result in possible
            self.sub_rolls.append(SubRoll(what=what, die=die, result=result, possible=ok))
            if ok:
                return result

    def number(self, what: str, sides: int) -> int:
        die = self.dice.roll(sides, f"combat event: {what}", subject=self.subject)
        self.sub_rolls.append(SubRoll(what=what, die=die, result=str(die.value)))
        return die.value

    def direction(self, what: str) -> tuple[str, int, int]:
        table = DIRECTIONS[self.state.options.random_direction]
        die = self.dice.roll(
            len(table), f"combat event: random direction ({what})", subject=self.subject
        )
        d = table[die.value - 1]
        self.sub_rolls.append(SubRoll(what=f"direction ({what})", die=die, result=d[0]))
        return d

    def prompt(self, text: str) -> None:
        self.prompts.append(Prompt(id=self.new_id(), round=self.round, text=text))

    def apply(self, a: Applied) -> None:
        self.applied.append(a)

    def effect(
        self, combatant: str, name: str, rounds: int | None = None, direction: str | None = None
    ) -> None:
        """A tracked effect; `rounds` counts the current round (None: until cleared)."""
        until = None if rounds is None else self.round + rounds - 1
        self.apply(
            Applied(combatant=combatant, effect=name, until_round=until, direction=direction)
        )

    def moved_to(self, combatant: str, dx: int, dy: int, steps: int) -> Applied | None:
        c = self.state.combatants[combatant]
        if c.x is None or c.y is None:
            return None
        b = self.state.board
        x, y = max(c.x + dx * steps, 0), max(c.y + dy * steps, 0)
        if b.width is not None:
            x = min(x, b.width - 1)
        if b.height is not None:
            y = min(y, b.height - 1)
        return Applied(combatant=combatant, effect="moved", x=x, y=y)

    def save_modifier(self, combatant: str, source: str | None) -> int:
        """A combatant's modifier to a save, made against `source` (None: no combatant)."""
        # seed 004 Combat Events, Lucky Break: "+4 bonus to AC and Saves for this round only"
        modifier = 4 if self.state.combatants[combatant].has("lucky_break") else 0
        # seed 004 Combat Events, Lucky Opening: "Characters Save at -2 penalty against this
        # character for one round" (the effect lasts as `one_round_effects` says)
        if source is not None and self.state.combatants[source].has("lucky_opening"):
            modifier -= 2
        return modifier

    def test(
        self,
        combatant: str,
        test: str,
        then: str,
        *,
        item: str | None = None,
        effects: tuple[Applied, ...] = (),
        source: str | None = None,
    ) -> None:
        """Roll a save or check (or leave it to the referee), then continue with its result.

        `source`: the combatant a save is made against, if any."""
        c = self.state.combatants[combatant]
        kind, _, name = test.partition(":")
        if kind == "save":
            target = c.saves.get(name)
            modifier = self.save_modifier(combatant, source)
        elif kind == "check":
            target, modifier = c.checks.get(name), 0
        else:
            target, modifier = c.item_saves.get(item or "", {}).get(name), 0
        tid = self.new_id()
        if target is None:
            self.tests.append(
                CheckRecord(
                    id=tid,
                    combatant=combatant,
                    test=test,
                    item=item,
                    source=source,
                    modifier=modifier,
                    result="pending",
                )
            )
            self.pending.append(
                Pending(
                    id=tid,
                    kind="test",
                    combatant=combatant,
                    test=test,
                    item=item,
                    source=source,
                    modifier=modifier,
                    then=then,
                    effects=effects,
                )
            )
            return
        die = self.dice.roll(
            20, f"{test} of {combatant}" + (f" ({item})" if item else ""), subject=combatant
        )
        total = die.value + modifier
        band = self.state.options.glancing_band
        result: Result
        if total >= target:
            result = "success"
        elif band and target - total <= band:
            result = "glancing"
        else:
            result = "fail"
        self.tests.append(
            CheckRecord(
                id=tid,
                combatant=combatant,
                test=test,
                item=item,
                source=source,
                target=target,
                modifier=modifier,
                die=die,
                total=total,
                result=result,
            )
        )
        self.follow(then, result, combatant, item, effects)

    def follow(
        self,
        then: str,
        result: Result,
        combatant: str,
        item: str | None,
        effects: tuple[Applied, ...],
    ) -> None:
        """What a test's result leads to (the rows' text). A glancing save is a success
        except where the text gives it its own outcome (Slip)."""
        failed = result == "fail"
        c = self.state.combatants[combatant]
        if then == "slip":
            count = {"success": 1, "glancing": 2, "fail": 3}[result]
            if count >= len(effects):
                for a in effects:
                    self.apply(a)
            else:
                self.pending.append(
                    Pending(
                        id=self.new_id(),
                        kind="choice",
                        combatant=combatant,
                        count=count,
                        effects=effects,
                        detail=f"Slip: {combatant} chooses {count} of these to happen",
                    )
                )
        elif not failed:
            return
        elif then == "prone":
            self.effect(combatant, "prone")
        elif then == "bucks_check":
            self.prompt(
                f"{combatant}'s mount or vehicle bucks wildly: every other rider or passenger "
                "makes a Reflex Save vs. Paralyzation or falls prone"
            )
            self.test(combatant, "save:paralyzation", "bucks_save")
        elif then == "bucks_save":
            self.effect(combatant, "prone")
            m = c.mount
            if m is not None and (m.kind == "mount" or m.open_topped):
                self.effect(combatant, "fell_off")
        elif then == "stumble_check":
            self.effect(combatant, "mount_down")
            # "all riders or passengers must make a Save": the setup knows only the rider
            self.prompt(
                f"{combatant}'s mount or vehicle is knocked prone or turned over: every other "
                "rider or passenger makes a Save vs. Paralyzation or is Stunned for 1d6 rounds"
            )
            self.test(combatant, "save:paralyzation", "stumble_save")
        elif then == "stumble_save":
            self.effect(combatant, "stunned", rounds=self.number("rounds stunned", 6))
        elif then == "disarm" and item is not None:
            self.apply(Applied(combatant=combatant, effect="disarmed", item=item))
        elif then == "item_damaged" and item is not None:
            self.apply(Applied(combatant=combatant, effect="damaged", item=item))
