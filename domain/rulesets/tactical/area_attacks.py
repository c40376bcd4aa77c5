"""Area attacks of seed 002 ([Ranges]: blast, burst, close burst, line): the squares from
the diagrams (areas.py), who was in them, one roll compared with each target's own
defence (A57). The event lists the squares covered and the creatures in them.

Creatures the attacker cannot see ([Total Concealment]) are named in a referee-only
event unless the attack hits them; blast, burst and close burst take no -4 against them
([Targeting What You Can't See §3]), a line does (A56).
"""

from __future__ import annotations

from domain.actors import side_audience
from domain.dice import Dice, dice_for
from domain.errors import RuleViolation
from domain.rulesets.tactical.areas import blast, burst, clip, close_burst, line
from domain.rulesets.tactical.commands import Attack
from domain.rulesets.tactical.events import AreaCovered, UnseenAttackResolved
from domain.rulesets.tactical.fear import check_area
from domain.rulesets.tactical.modifiers import attack_modifiers, totally_concealed
from domain.rulesets.tactical.opportunity import offer_for_attack
from domain.rulesets.tactical.records import AttackRecord, Modifier, StatBonus
from domain.rulesets.tactical.resolution import attack_side, resolve_in_turn, structure_damage
from domain.rulesets.tactical.rules import (
    R_ATTACKS,
    R_RANGES,
    R_UNSEEN,
    Run,
    char,
    ensure_active,
    hostile,
    need_sta,
)
from domain.rulesets.tactical.walls import check_wall, raise_wall
from domain.rulesets.tactical.weapons import attack_action, check_range, roll_weapon, weapon_of

__all__ = ["area_attack", "area_squares"]


def area_squares(
    shape: str, rating: int, origin: tuple[int, int], direction: str | None, w: int, h: int
) -> list[tuple[int, int]]:
    """The squares of an area on a w x h map ([Blast], [Burst], [Close Burst], [Line])."""
    if shape == "blast":
        assert direction is not None
        sq = blast(origin, direction, rating)
    elif shape == "line":
        assert direction is not None
        sq = line(origin, direction, rating)
    elif shape == "burst":
        sq = burst(origin, rating)
    else:
        sq = close_burst(origin, rating)
    return list(clip(sq, w, h))


def area_attack(run: Run, cmd: Attack, dice: Dice, *, resumed: bool = False) -> None:
    """An area attack by the active character; `resumed`: after its opportunity attacks."""
    st = run.state
    a = char(st, cmd.character)
    if not resumed:
        ensure_active(st, a)
    w = weapon_of(st, a, cmd.weapon)
    assert w.area is not None
    shape, rating = w.area.shape, w.area.rating
    action, sta = attack_action(st, a, w)
    need_sta(st, a, sta + w.sta, "this attack")
    if w.wil and a.WIL.cur < w.wil:
        raise RuleViolation(f"{w.id} costs {w.wil} WIL", rule=R_ATTACKS)
    if shape == "wall":  # [Wall]: the origin within range, the first section on it (A61)
        requested = [(q[0], q[1]) for q in cmd.sections]
        check_wall(w.id, rating, requested, no_loops=st.options.wall_no_loops)
        check_range(st, a, w, requested[0], None, False)
        # [Stamina Actions] trigger (b)/(c): a ranged wall, or a spell wall (it has neither
        # the blast nor the close burst attribute), provokes before it is placed (A58)
        if not resumed and offer_for_attack(run, a, cmd, w.kind, shape):
            return
        power = st.board.powers.get(w.id)
        raise_wall(
            run,
            a,
            w.id,
            rating,
            requested,
            action,
            sta + w.sta,
            w.wil,
            power.wall_sth if power is not None else 1,
        )
        return
    origin = a.pos
    direction = None
    if shape in ("blast", "line"):
        if cmd.direction is None:
            raise RuleViolation(f"a {shape} needs a direction (N..NW)", rule=R_RANGES)
        direction = cmd.direction
    elif shape == "burst":
        if cmd.square is None:
            raise RuleViolation("a burst needs its origin square", rule=R_RANGES)
        origin = (cmd.square[0], cmd.square[1])
        check_range(st, a, w, origin, None, False)
    squares = area_squares(shape, rating, origin, direction, st.board.width, st.board.height)
    check_area(st, a, squares)  # [Conditions] Frightened: the source may not be in it (A31)
    occupied = st.occupied
    seen: list[str] = []
    hidden: list[str] = []
    targets = []
    for sq in squares:
        cid = occupied.get(sq)
        if cid is None or cid == a.id:
            continue
        t = st.chars[cid]
        if w.area.affects == "enemies" and not hostile(st, a, t):
            continue
        targets.append(t)
        (hidden if totally_concealed(st, a, t) else seen).append(cid)
    structures = tuple(dict.fromkeys(st.built[sq] for sq in squares if sq in st.built))
    # an invisible foe the attacker's side perceived in the area: the whole attack is that
    # side's (0.5.0), as a named attack on it is: its occupants and records name it, and
    # the area's squares bound where it stands; its dice from that side's stream
    side = attack_side(a, [st.chars[cid] for cid in seen])
    # [Stamina Actions] trigger (b)/(c), before the attack is rolled (A58). Its window is
    # public and names the area's square: when the area takes in such a foe, none opens
    # under hidden_opportunity `none` (0.5.0, as for a Charge at one: walking._toward_unseen)
    hush = side is not None and st.options.hidden_opportunity == "none"
    if not resumed and not hush and offer_for_attack(run, a, cmd, w.kind, shape):
        return
    own = dice if side is None else dice_for(dice, side_audience(side))
    roll, dice_total = roll_weapon(own, w, a.id, False)
    run.emit(
        AreaCovered(
            attacker=a.id,
            weapon=w.id,
            shape=shape,
            rating=rating,
            origin=origin,
            direction=direction,
            squares=tuple(squares),
            occupants=tuple(seen),
            structures=structures,
            action=action,
            sta_spent=sta + w.sta,
            wil_spent=w.wil,
            hidden_side=side,
        )
    )
    abilities = tuple(StatBonus(stat=s, value=getattr(a.stats, s)) for s in w.add_stats)
    base = dice_total + sum(b.value for b in abilities) + w.bonus
    spell = w.kind == "spell"
    pool = w.pool or ("STA" if spell else "HEA")
    missed_hidden: list[str] = []
    records: list[AttackRecord] = []
    area_roll, area_total, area_base = roll, dice_total, base
    own_roll = False  # whether the next target seen gets a roll of its own (A57 option)
    for t in targets:
        unseen = t.id in hidden
        if unseen or not own_roll:
            # A57 option, ruling (RULINGS.md): a creature the attacker cannot see is
            # compared with the area's roll, as without the option. A roll of its own
            # would be a die no side could check until the battle ends, and the indexes
            # of the rolls after it would tell the attacker's side it was there.
            roll, dice_total, base = area_roll, area_total, area_base
            own_roll = own_roll or (st.options.area_roll_per_target and not unseen)
        else:
            roll, dice_total = roll_weapon(own, w, a.id, False)  # A57 option: a roll each
            base = dice_total + sum(b.value for b in abilities) + w.bonus
        mods = attack_modifiers(run.state, a, t, w.kind)
        if unseen and shape == "line":
            mods.append(
                Modifier(
                    kind="unseen_square",
                    value=-st.options.unseen_square_penalty,
                    reason="a line into a square the attacker cannot see (A56)",
                    rule=R_UNSEEN,
                    squares=(t.pos,),
                )
            )
        total = base + sum(m.value for m in mods)
        defence = t.FOC if spell else t.DEF
        record = AttackRecord(
            attacker=a.id,
            target=t.id,
            target_kind="character",
            square=t.pos,
            weapon=w.id,
            weapon_kind=w.kind,
            action=action,  # type: ignore[arg-type]
            dice=roll,
            dice_total=dice_total,
            abilities=abilities,
            bonus=w.bonus,
            modifiers=tuple(mods),
            total=total,
            defence_stat="FOC" if spell else "DEF",
            defence=defence,
            pool=pool,
            damage=total - defence,
            area=True,
            unseen=unseen,
        )
        if unseen and record.damage <= 0:
            missed_hidden.append(t.id)
            continue
        records.append(record)
    for sid in structures:
        s = run.state.structures[sid]
        # the area's roll: a structure is no target of a roll of its own (A57 option)
        structure_damage(run, sid, pool, area_base - (s.FOC if spell else s.DEF))
    # Always emitted, so that its presence tells the attacker's side nothing (§2).
    run.emit(
        UnseenAttackResolved(
            attacker=a.id,
            squares=tuple(squares),
            present=tuple(hidden),
            detail=f"unseen in the area; missed: {', '.join(missed_hidden) or 'none'}",
        )
    )
    resolve_in_turn(run, records, dice, hidden=side)
