"""Hidden dice (issue 31.5, domain.dice "Hidden dice"): a die for an event only one
audience may read derives from that audience's committed sub-seed, with its own counter;
the audit checks it once that sub-seed is revealed, and an epoch committed before
sub-seeds existed still verifies with the battle's seed alone."""

from __future__ import annotations

import typing
from typing import Any

import msgspec
import pytest

from domain.dice import Roll, ServerDice, SuppliedDice, commitment, derive_value, dice_for
from domain.rulesets import RULESETS
from domain.rulesets.quickstart.access import _HIDEABLE as QS_HIDEABLE
from events.chain import GENESIS_HASH, canonical, seal
from events.dice_streams import check_streams, hidden_audiences, sub_seeds
from events.envelope import EventActor, StoredEvent
from events.verify import audit_log
from tests.support.quickstart_testkit import make as qs_make
from tests.support.quickstart_testkit import run as qs_run
from tests.support.quickstart_testkit import sq
from tests.support.skirmish_kit import orcs, ready
from tests.support.tactical_kit import ch
from tests.support.tactical_kit import make as tactical_make

SEED, NORTH, REF = bytes(range(32)), bytes(range(1, 33)), bytes(range(2, 34))
B = "battle-h"
SIDES = 10**9  # a die matching another seed's by chance: one in a billion
SUBS = {"side:north": commitment(NORTH), "referee": commitment(REF)}


def _roll(seed: bytes, version: int, index: int = 0, epoch: int = 1) -> dict[str, Any]:
    return {
        "kind": "roll", "sides": SIDES,
        "values": [derive_value(seed, B, version, index, "", SIDES)],
        "purpose": "hide", "source": "server", "epoch": epoch, "version": version,
        "index": index, "client_seed": "",
    }  # fmt: skip


def _log(*items: tuple[str, dict[str, Any], str]) -> list[StoredEvent]:
    pending = seal(
        battle_id=B,
        prev_version=0,
        prev_hash=GENESIS_HASH,
        items=[(t, canonical(d), a) for t, d, a in items],
        recorded_at="2026-01-01T00:00:00.000Z",
        actor=EventActor(role="referee"),
        command_id=None,
        salts=[None if a == "all" else "ab" * 16 for _, _, a in items],
    )
    return [StoredEvent(position=i + 1, **msgspec.structs.asdict(p)) for i, p in enumerate(pending)]


def _created(subs: dict[str, str] | None = SUBS) -> tuple[str, dict[str, Any], str]:
    data: dict[str, Any] = {"dice_epoch": 1, "dice_commitment": commitment(SEED)}
    if subs is not None:
        data["dice_sub_commitments"] = subs
    return ("BattleCreated", data, "all")


def _sub_revealed(audience: str, seed: bytes) -> tuple[str, dict[str, Any], str]:
    return ("DiceSubSeedRevealed", {"epoch": 1, "audience": audience, "seed": seed.hex()},
            audience)  # fmt: skip


REVEALED = ("DiceSeedRevealed", {"epoch": 1, "seed": SEED.hex(), "reason": "requested"}, "all")


def test_a_hidden_audiences_dice_are_its_sub_seeds_with_a_counter_of_their_own() -> None:
    dice = ServerDice(seed=SEED, epoch=1, battle_id=B, version=7,
                      sub_seeds={"side:north": NORTH})  # fmt: skip
    hidden = dice_for(dice, "side:north").roll(SIDES, "hide")
    public = dice.roll(SIDES, "attack")
    assert (hidden.index, public.index) == (0, 0)  # a hidden die moves no public index
    assert hidden.values == (derive_value(NORTH, B, 7, 0, "", SIDES),)
    assert public.values == (derive_value(SEED, B, 7, 0, "", SIDES),)
    assert dice_for(dice, "side:north").roll(SIDES, "again").index == 1
    assert dice.drawn == [hidden, public, dice.streams["side:north"].drawn[1]]
    # No sub-seed for it (an older epoch, or "all"): the battle's seed, as before.
    assert dice_for(dice, "referee") is dice and dice_for(dice, "all") is dice
    table = SuppliedDice([3])
    assert dice_for(table, "side:north") is table


def test_the_audit_checks_a_hidden_die_only_with_its_audiences_sub_seed() -> None:
    hide = ("Hidden", {"roll": _roll(NORTH, 2)}, "side:north")
    seen = ("Attacked", {"roll": _roll(SEED, 2)}, "all")  # same counter, another stream
    before = audit_log(_log(_created(), hide, seen, REVEALED))
    assert before.ok and (before.dice_checked, before.dice_pending) == (1, 1)
    after = audit_log(_log(_created(), hide, seen, _sub_revealed("side:north", NORTH), REVEALED))
    assert after.ok and (after.dice_checked, after.dice_pending) == (2, 0)


def test_a_hidden_die_from_the_battles_seed_fails_once_sub_seeds_are_committed() -> None:
    leaked = ("Hidden", {"roll": _roll(SEED, 2)}, "side:north")
    report = audit_log(_log(_created(), leaked, _sub_revealed("side:north", NORTH), REVEALED))
    assert not report.ok and report.failed_version == 2
    assert "sub-seed of side:north" in (report.reason or "")


def test_a_sub_seed_that_is_not_the_one_committed_fails() -> None:
    report = audit_log(_log(_created(), _sub_revealed("side:north", REF)))
    assert not report.ok and report.failed_version == 2
    assert "does not match its commitment" in (report.reason or "")


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        (_created(["r1"]), "the BattleCreated event is malformed"),  # type: ignore[arg-type]
        (("DiceSubSeedRevealed", {"epoch": 1, "audience": "referee", "seed": "zz"}, "referee"),
         "revealed sub-seed of referee is not hex"),
        (("DiceSubSeedRevealed", {"epoch": 1, "seed": "00"}, "referee"),
         "the DiceSubSeedRevealed event is malformed"),
    ],
)  # fmt: skip
def test_a_malformed_sub_seed_fact_is_named(event: Any, reason: str) -> None:
    events = _log(_created(), event) if event[0] != "BattleCreated" else _log(event)
    report = audit_log(events)
    assert not report.ok and report.reason == reason
    assert report.failed_version == events[-1].version


def test_a_sub_seed_revealed_for_an_epoch_that_committed_none_fails() -> None:
    report = audit_log(_log(_created(None), _sub_revealed("referee", REF)))
    assert not report.ok and report.failed_version == 2
    assert report.reason == (
        "the sub-seed revealed for referee in epoch 1 does not match its commitment None"
    )


def test_a_die_for_an_audience_with_no_sub_seed_committed_fails() -> None:
    odd = ("Hidden", {"roll": _roll(SEED, 2)}, "side:west")
    report = audit_log(_log(_created(), odd, REVEALED))
    assert not report.ok and report.failed_version == 2
    assert report.reason == "a server die for side:west names no committed sub-seed"


def test_an_old_battle_with_one_seed_still_verifies_its_hidden_dice() -> None:
    """Created before sub-seeds existed: its hidden dice derived from the battle's seed."""
    hide = ("Hidden", {"roll": _roll(SEED, 2)}, "side:north")
    report = audit_log(_log(_created(None), hide, REVEALED))
    assert report.ok and (report.dice_checked, report.dice_pending) == (1, 0)


def test_a_later_epochs_sub_seeds_come_with_its_commitment() -> None:
    reveal = ("DiceSeedRevealed", {**REVEALED[1], "next_epoch": 2,
              "next_commitment": commitment(NORTH), "next_sub_commitments":
              {"referee": commitment(SEED)}}, "all")  # fmt: skip
    hide = ("Secret", {"roll": _roll(SEED, 3, epoch=2)}, "referee")
    sub = ("DiceSubSeedRevealed", {"epoch": 2, "audience": "referee", "seed": SEED.hex()},
           "referee")  # fmt: skip
    report = audit_log(_log(_created(None), reveal, hide, sub))
    assert report.ok and (report.dice_checked, report.dice_pending) == (1, 0)
    started = ("DiceEpochStarted", {"epoch": 2, "commitment": commitment(NORTH),
               "sub_commitments": {"referee": commitment(REF)}}, "all")  # fmt: skip
    report = audit_log(_log(_created(None), started, hide, sub))
    assert not report.ok and report.failed_version == 4


def test_an_epoch_started_mid_battle_commits_its_own_sub_seeds() -> None:
    started = ("DiceEpochStarted", {"epoch": 2, "commitment": commitment(NORTH),
               "sub_commitments": {"referee": commitment(REF)}}, "all")  # fmt: skip
    hide = ("Secret", {"roll": _roll(REF, 3, epoch=2)}, "referee")
    sub = ("DiceSubSeedRevealed", {"epoch": 2, "audience": "referee", "seed": REF.hex()},
           "referee")  # fmt: skip
    report = audit_log(_log(_created(None), started, hide, sub))
    assert report.ok and (report.dice_checked, report.dice_pending) == (1, 0)


class _Hidden(msgspec.Struct, frozen=True, tag="Hidden"):
    roll: Roll


def test_the_service_refuses_a_die_drawn_from_another_audiences_stream() -> None:
    def dice() -> ServerDice:
        return ServerDice(seed=SEED, epoch=1, battle_id=B, version=3,
                          sub_seeds={"side:north": NORTH, "referee": REF})  # fmt: skip

    d = dice()
    ok = _Hidden(roll=dice_for(d, "side:north").roll(20, "hide"))
    check_streams(d, [(ok, "side:north")])
    d = dice()
    public = _Hidden(roll=d.roll(20, "hide"))  # the leak of issue 31.5
    with pytest.raises(RuntimeError, match="not drawn from that audience's dice stream"):
        check_streams(d, [(public, "side:north")])
    d = dice()
    secret = _Hidden(roll=dice_for(d, "referee").roll(20, "hide"))
    with pytest.raises(RuntimeError):
        check_streams(d, [(secret, "all")])
    with pytest.raises(RuntimeError):
        check_streams(d, [(secret, "side:north")])


class _Quoting(msgspec.Struct, frozen=True, tag="Quoting"):
    quoted: Roll  # a die of an earlier command, repeated (a reaction's attack roll)
    roll: Roll


def test_a_quoted_die_passes_and_does_not_hide_a_die_of_the_wrong_stream() -> None:
    """A die an earlier command drew (its counter's version is not this command's) is a
    quote, checked when it was drawn: it passes in any event. A die of this command behind
    it in the same event is still checked against its event's audience."""
    d = ServerDice(seed=SEED, epoch=1, battle_id=B, version=3, sub_seeds={"side:north": NORTH})
    earlier = Roll(sides=20, values=(11,), purpose="attack", source="server", epoch=1,
                   version=2, index=0)  # fmt: skip
    own = dice_for(d, "side:north").roll(SIDES, "hide")
    check_streams(d, [(_Quoting(quoted=earlier, roll=own), "side:north")])
    leaked = d.roll(SIDES, "hide")  # the public stream's die, in north's event
    with pytest.raises(RuntimeError) as raised:
        check_streams(d, [(_Quoting(quoted=earlier, roll=leaked), "side:north")])
    # the message a ruleset's author reads in the log of the 500: which die, which event
    assert str(raised.value) == (
        "a die for 'hide' in a _Quoting for 'side:north' was not drawn from that "
        "audience's dice stream"
    )


def test_each_audiences_sub_seed_is_its_own() -> None:
    assert hidden_audiences(["n", "s"]) == ["referee", "side:n", "side:s"]
    subs = sub_seeds(SEED, hidden_audiences(["n", "s"]))
    assert len(set(subs.values())) == 3 and SEED not in subs.values()
    assert sub_seeds(NORTH, ["referee"])["referee"] != subs["referee"]


def _holds_roll(tp: Any, seen: set[int]) -> bool:
    if tp is Roll:
        return True
    if id(tp) in seen:
        return False
    seen.add(id(tp))
    if typing.get_args(tp):
        return any(_holds_roll(a, seen) for a in typing.get_args(tp))
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return any(_holds_roll(h, seen) for h in typing.get_type_hints(tp).values())
    return False


# The event types each ruleset may hide (its `audience` names one reader for some of
# them), and those of them that hold dice: each of these is drawn from its audience's
# sub-seed by its decider (the tests below), and any other would need to be.
_HIDEABLE = {
    "tactical": ({"UnseenAttackResolved", "CheckCalled", "Moved", "CharacterRevealed",
                  "ActionInterrupted", "CharacterPlaced"}, {"CheckCalled"}),
    "quickstart": ({"SkillChecked", *(t.__name__ for t in QS_HIDEABLE)}, {"SkillChecked"}),
    "skirmish": ({"TacticChosen", "TacticIssued", "TacticLearned", "TacticNoticed",
                  "ActionDeclared"}, {"TacticIssued", "TacticNoticed"}),
    "phased": ({t.__name__ for t in typing.get_args(RULESETS["phased"].event_type)
                if "hidden_side" in t.__struct_fields__}, set()),
    "warfare": (set(), set()),
}  # fmt: skip


@pytest.mark.parametrize("ruleset_id", sorted(_HIDEABLE))
def test_the_hidden_events_that_hold_dice_are_those_drawn_from_sub_seeds(
    ruleset_id: str,
) -> None:
    hideable, with_dice = _HIDEABLE[ruleset_id]
    types = {t.__name__: t for t in typing.get_args(RULESETS[ruleset_id].event_type)}
    assert hideable <= set(types)
    assert {n for n in hideable if _holds_roll(types[n], set())} == with_dice


# Each decider that draws dice for a hidden event draws them from that event's audience.
KEYS = {"all": SEED, "referee": REF, "side:north": NORTH, "side:south": bytes(range(3, 35))}


def _decide(ruleset_id: str, state: Any, command: dict[str, Any]) -> list[tuple[Any, str]]:
    """`command` decided with server dice that hold a sub-seed for every audience; each
    event with its audience. Every server die of it is the die of its event's audience's
    key at its counter."""
    ruleset = RULESETS[ruleset_id]
    subs = {a: k for a, k in KEYS.items() if a != "all"}
    dice = ServerDice(seed=SEED, epoch=1, battle_id=B, version=50, sub_seeds=subs)
    cmd = ruleset.command_decoder.decode(msgspec.json.encode(command))
    decided = [(ev, ruleset.audience(ev)) for ev in ruleset.decide(state, cmd, dice)]
    check_streams(dice, decided)
    for ev, audience in decided:
        for roll in _rolls(ev):
            for i, value in enumerate(roll.values):
                key = KEYS[audience]
                assert value == derive_value(key, B, 50, roll.index + i, "", roll.sides), (ev, i)
    return decided


def _rolls(obj: Any) -> list[Roll]:
    if isinstance(obj, Roll):
        return [obj] if obj.source == "server" and obj.version == 50 else []
    if isinstance(obj, msgspec.Struct):
        return [r for f in obj.__struct_fields__ for r in _rolls(getattr(obj, f))]
    if isinstance(obj, tuple | list):
        return [r for x in obj for r in _rolls(x)]
    return []


def _hidden_dice(decided: list[tuple[Any, str]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for ev, audience in decided:
        if audience != "all":
            out[audience] = out.get(audience, 0) + sum(len(r.values) for r in _rolls(ev))
    return out


def test_a_referees_secret_check_draws_from_the_referees_sub_seed() -> None:
    s = tactical_make([ch("a1", "a", 1, 1), ch("b1", "b", 5, 5)])
    call = {"type": "CallCheck", "character": "a1", "stat": "DEX", "reason": "ambush"}
    assert _hidden_dice(_decide("tactical", s, {**call, "secret": True})) == {"referee": 1}
    assert _hidden_dice(_decide("tactical", s, call)) == {}


def test_a_hiding_check_draws_from_its_sides_sub_seed() -> None:
    hero = {"id": "h", "side": "south", "squad": "s_hid", "skills": {"stealth": 5}}
    squads = [sq("n1", "north", "soldier", 1, 5, 2), sq("s_hid", "south", "paladin", 1, 5, 9)]
    s, _ = qs_run(qs_make(squads, heroes=[hero]), "PriorityCheck", [1, 1, 6], hero="h",
                  skill="history")  # fmt: skip
    use = {"type": "UseSkill", "hero": "h", "skill": "stealth"}
    assert _hidden_dice(_decide("quickstart", s, use)) == {"side:south": 1}


def test_a_secret_tactic_and_each_notice_draw_from_their_sides_sub_seeds() -> None:
    s = ready(
        south=[orcs("o1"), orcs("o2", commander={"name": "sharp", "profession_soldier": 9})],
        places={"o2": (10, 70, "north")},
    )
    issue = {"type": "IssueTactic", "army": "fighters", "tactic": "cautious_combat"}
    decided = _decide("skirmish", s, issue)
    assert [type(e).__name__ for e, _ in decided] == ["TacticIssued", *["TacticNoticed"] * 2]
    # north's: the Morale check and the notice DC's die; south's: each force's notice check
    assert _hidden_dice(decided) == {"side:north": 2, "side:south": 2}
