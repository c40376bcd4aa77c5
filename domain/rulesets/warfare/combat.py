"""Attacks, damage, morale, shattering and the end of the battle for seed 003.

One attack: d20 + attack modifier (+ champion, conditions, range) against defense (+
champion, conditions); the margin picks the band (bands.py), the band and a natural 20
the multiplier. Damage then may destroy the unit (W10) or, once it is diminished, force a
morale check (d20 + morale against DC 20) whose failure shatters it: it leaves the field
at once, every unit engaged with it hits it automatically and may pursue.
"""

from __future__ import annotations

from domain.dice import Dice, Roll
from domain.rulesets.warfare.bands import band_of, multiplied
from domain.rulesets.warfare.events import (
    AttackKind,
    AttackResolved,
    Band,
    BattleEnded,
    Modifier,
    MoraleChecked,
    RoundEnded,
    SideDefeated,
    TurnEnded,
    UnitDestroyed,
    UnitShattered,
)
from domain.rulesets.warfare.geometry import distance
from domain.rulesets.warfare.model import State, Unit
from domain.rulesets.warfare.rules import (
    R_ATTACKS,
    R_DIMINISHED,
    R_MORALE,
    R_PROJECT,
    R_SHATTERED,
    R_ZONES,
    Run,
)

__all__ = [
    "MORALE_DC",
    "attack",
    "check_end",
    "finish",
    "morale_check",
    "next_side",
    "shatter",
]

MORALE_DC = 20  # [Morale] "All morale checks are DC 20"
INCREMENT_PENALTY = 2  # [Ranged Increments] "-2 penalty ... for each increment beyond the first"


def _conditions(state: State, u: Unit, field: str) -> list[Modifier]:
    if not u.conditions:  # the common case, on the path of every attack
        return []
    effects = state.board.options.conditions
    out = []
    for name in u.conditions:
        value = getattr(getattr(effects, name), field)
        if value:
            out.append(Modifier(value=value, reason=f"condition: {name}"))
    return out


def _champion(u: Unit, field: str) -> list[Modifier]:
    if u.joined_by is None:
        return []
    value = getattr(u.champion_bonus, field)
    return [Modifier(value=value, reason=f"champion {u.joined_by} joined")] if value else []


def attack(
    run: Run,
    dice: Dice,
    attacker: str,
    target: str,
    kind: AttackKind,
    melee: bool,
    increments: int = 0,
) -> None:
    """Roll one attack (or, `kind` "shatter", the automatic hit) and apply its damage."""
    s = run.state
    a, t = s.units[attacker], s.units[target]
    options = s.board.options
    defense_mods = _champion(t, "defense") + _conditions(s, t, "defense")
    defense = t.defense + sum(m.value for m in defense_mods)
    damage_mods = _champion(a, "damage") + _conditions(s, a, "damage")
    base = max(0, a.damage + sum(m.value for m in damage_mods))
    if kind == "shatter":
        die = None
        natural = total = margin = None
        mods: list[Modifier] = []
        band: Band = "hit"
        multiplier, damage, doubled = multiplied(
            base, "hit", False, options.natural_20_miss, options.natural_20_glancing
        )
        rule = R_SHATTERED
    else:
        what = "attack" if kind == "attack" else f"{kind} attack"
        die = dice.roll(20, f"{what}: {attacker} on {target}", subject=attacker)
        natural = die.value
        mods = [Modifier(value=a.attack, reason="attack modifier")]
        mods += _champion(a, "attack") + _conditions(s, a, "attack")
        if increments > 1:
            mods.append(
                Modifier(
                    value=-INCREMENT_PENALTY * (increments - 1),
                    reason=f"range: {increments} increments",
                )
            )
        total = natural + sum(m.value for m in mods)
        margin = total - defense
        band = band_of(margin)
        multiplier, damage, doubled = multiplied(
            base, band, natural == 20, options.natural_20_miss, options.natural_20_glancing
        )
        # W07's double on a miss is the issue's ruling, not the text's: the band table
        # says miss, so the event cites the project ruling like every other ruling applied
        rule = R_PROJECT if band == "miss" and doubled else R_ATTACKS
    after = max(0, t.health - damage)
    run.emit(
        AttackResolved(
            attacker=attacker,
            target=target,
            kind=kind,
            melee=melee,
            die=die,
            natural=natural,
            modifiers=tuple(mods),
            total=total,
            defense=defense,
            defense_modifiers=tuple(defense_mods),
            margin=margin,
            band=band,
            natural_20=doubled,
            damage_band="natural-20" if doubled else band,
            distance=distance(a.tile, t.tile) if t.on_field else 0,
            increments=increments,
            damage_before=base,
            damage_modifiers=tuple(damage_mods),
            multiplier=multiplier,
            damage=damage,
            health_before=t.health,
            health_after=after,
            champion_exposed=t.joined_by,
            # [Retaliatory Attacks] "any unit ... that attacks them in melee": a retaliation
            # is a melee attack on the unit it hits too (issue 32); a free attack is not
            # (RULINGS), and the automatic hit on a shattering unit leaves none to answer
            opens_retaliation=melee and kind in ("attack", "retaliation"),
            rule=rule,
        )
    )
    if kind != "shatter" and damage > 0:
        # a natural 20 that doubles a miss or a glancing blow hits (W07, W08)
        _after_damage(run, dice, a, target, band in ("hit", "critical") or doubled)


def _after_damage(run: Run, dice: Dice, a: Unit, target: str, hit: bool) -> None:
    """W10: 0 health destroys (or shatters); [Diminished]: a check on every damage at or
    below half health; [Morale]: an ability of the attacker may force one (W11)."""
    s = run.state
    t = s.units[target]
    if t.status != "field" or (2 * t.health > t.max_health and not a.abilities):
        return  # neither destroyed, nor diminished, nor an ability's check: the common case
    if t.health == 0:
        if s.options.zero_health == "destroyed":
            run.emit(UnitDestroyed(unit=t.id, reason="reduced to 0 health", rule=R_PROJECT))
            check_end(run)
        else:
            shatter(run, t.id)
        return
    forced = [
        ab
        for ab in a.abilities
        if ab.forces_morale_check and (hit or s.options.ability_check == "on_damage")
    ]
    if not (t.diminished or forced):
        return
    extra = [Modifier(value=ab.morale, reason=f"ability: {ab.id}") for ab in forced if ab.morale]
    # one check for the one damage: the most severe forcing ability's modifier joins it
    extra = sorted(extra, key=lambda m: m.value)[:1]
    reason = "diminished: took damage" if t.diminished else f"ability of {a.id}"
    morale_check(run, dice, target, reason, extra, R_DIMINISHED if t.diminished else R_MORALE)


def morale_check(
    run: Run, dice: Dice, uid: str, reason: str, extra: list[Modifier], rule: str = R_MORALE
) -> bool:
    """d20 + morale modifier against DC 20; a failure shatters the unit. True if passed."""
    s = run.state
    u = s.units[uid]
    die = dice.roll(20, f"morale check: {uid}", subject=uid)
    mods = [Modifier(value=u.morale, reason="morale modifier")]
    mods += _champion(u, "morale") + _conditions(s, u, "morale") + extra
    total = die.value + sum(m.value for m in mods)
    passed = total >= MORALE_DC
    run.emit(
        MoraleChecked(
            unit=uid,
            die=die,
            natural=die.value,
            modifiers=tuple(mods),
            total=total,
            dc=MORALE_DC,
            passed=passed,
            reason=reason,
            rule=rule,
        )
    )
    if not passed:
        shatter(run, uid)
    return passed


def _working_zone(s: State, side: str) -> str | None:
    """[Reinforcement Zones]: the first zone of `side` with no enemy unit on any tile."""
    for zid, tiles in s.board.zones[side]:
        if not any(
            s.units[o].side != side for tile in tiles if (o := s.occupied.get(tile)) is not None
        ):
            return zid
    return None


def shatter(run: Run, uid: str) -> None:
    """[Shattered Units]: leave at once towards a reinforcement zone, taking automatic hit
    damage from every unit engaged with it (W12 when no zone works)."""
    s = run.state
    u = s.units[uid]
    zone = _working_zone(s, u.side)
    if zone is None and s.options.retreat_blocked == "destroyed":
        run.emit(
            UnitDestroyed(
                unit=uid, reason="shattered with no working zone to retreat to", rule=R_ZONES
            )
        )
        check_end(run)
        return
    engaged = u.engaged
    run.emit(UnitShattered(unit=uid, engaged=engaged, zone=zone, rule=R_SHATTERED))
    for other in engaged:
        if run.state.units[other].on_field:
            attack(run, _NO_DICE, other, uid, "shatter", True)
    check_end(run)


class _NoDice:
    """The automatic hit rolls nothing: a die asked for here is a bug."""

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        raise AssertionError("an automatic hit rolls no die")

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        raise AssertionError("an automatic hit rolls no die")


_NO_DICE: Dice = _NoDice()


def _in_battle(s: State, side: str) -> bool:
    keep_reserves = s.options.reserves_keep_side_in
    return any(
        u.side == side and (u.on_field or (keep_reserves and u.status == "reserve"))
        for u in s.units.values()
    )


def next_side(s: State, after: str) -> str | None:
    """The next side of this round's order after `after` that is still in the battle."""
    order = s.order
    i = order.index(after) if after in order else len(order)
    for side in order[i + 1 :]:
        if side not in s.defeated:
            return side
    return None


def check_end(run: Run) -> None:
    """The end (W14, a project ruling: seed 003, a quick reference, says nothing of how a
    battle ends): a side with no unit left on the field loses; one side left wins. A
    defeated side whose turn it was passes the turn on."""
    s = run.state
    if s.over:
        return
    for side in s.board.sides:
        if side not in s.defeated and not _in_battle(s, side):
            run.emit(
                SideDefeated(side=side, reason="no unit left on the battlefield", rule=R_PROJECT)
            )
    finish(run)


def finish(run: Run) -> None:
    s = run.state
    left = [side for side in s.board.sides if side not in s.defeated]
    if len(left) <= 1:
        winner = left[0] if left else None
        run.emit(
            BattleEnded(
                winner=winner, reason="one side left" if left else "no side left", rule=R_PROJECT
            )
        )
        return
    if s.active is not None and s.active in s.defeated:
        nxt = next_side(s, s.active)
        run.emit(TurnEnded(side=s.active, next=nxt, rule=R_PROJECT))
        if nxt is None:
            run.emit(RoundEnded(round=s.round))
