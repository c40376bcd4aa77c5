"""[Attacks] of seed 002: the Attack command (weapon or power; a character, a structure or
an unseen square) checked and routed: an area (area_attacks.py), a dual wield (dual.py),
a structure, a visible target, or a square the attacker cannot see ([Targeting What You
Can't See]). The roll is built in attack_record.py and resolved in resolution.py.
"""

from __future__ import annotations

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.tactical.area_attacks import area_attack
from domain.rulesets.tactical.attack_record import attack_structure, single
from domain.rulesets.tactical.commands import Attack
from domain.rulesets.tactical.dual import dual
from domain.rulesets.tactical.modifiers import totally_concealed
from domain.rulesets.tactical.rules import R_ATTACKS, R_UNSEEN, Run, char, ensure_active, need_sta
from domain.rulesets.tactical.weapons import attack_action, weapon_of

__all__ = ["attack", "attack_command"]


def _is_area(run: Run, cmd: Attack) -> bool:
    c = char(run.state, cmd.character)
    held = cmd.weapon in run.state.board.items or cmd.weapon in run.state.board.powers
    if held and (cmd.weapon in (c.main_hand, c.off_hand) or cmd.weapon in c.powers):
        return weapon_of(run.state, c, cmd.weapon).area is not None
    return False


def attack_command(run: Run, cmd: Attack, dice: Dice, *, resumed: bool = False) -> None:
    """The Attack command: an area attack, or an attack at a target or square; `resumed`:
    going on after the opportunity attacks it provoked (resume.py)."""
    if _is_area(run, cmd):
        area_attack(run, cmd, dice, resumed=resumed)
    else:
        attack(run, cmd, dice, resumed=resumed)


def attack(run: Run, cmd: Attack, dice: Dice, *, resumed: bool = False) -> None:
    """An attack by the active character; `resumed`: after its opportunity attacks."""
    st = run.state
    a = char(st, cmd.character)
    if not resumed:
        ensure_active(st, a)
    w = weapon_of(st, a, cmd.weapon)
    action, sta = attack_action(st, a, w)
    if cmd.finisher:
        action = "finisher"
    if w.area is not None:
        # attack_command routes area attacks to area_attacks.py, never here
        raise RuleViolation(f"{w.id} is an area attack", rule=R_ATTACKS)
    need_sta(st, a, sta + w.sta, "this attack")
    if w.wil and a.WIL.cur < w.wil:
        raise RuleViolation(f"{w.id} costs {w.wil} WIL", rule=R_ATTACKS)
    if cmd.target is not None and cmd.target not in st.structures:
        char(st, cmd.target)
    if cmd.dual or cmd.second_target is not None:
        dual(run, cmd, dice, a, action, sta)
        return
    if cmd.target is not None:
        if cmd.target in st.structures:
            attack_structure(run, cmd, dice, a, w, action, sta, offer=not resumed)
            return
        t = char(st, cmd.target)
        if totally_concealed(st, a, t):
            raise RuleViolation(
                f"{t.id} has total concealment: perceive it first or attack a square",
                rule=R_UNSEEN,
            )
        single(run, cmd, dice, a, w, action, sta, t, t.pos, unseen=False, offer=not resumed)
        return
    if cmd.square is None:
        raise RuleViolation("name a target, or a square", rule=R_ATTACKS)
    sq = (cmd.square[0], cmd.square[1])
    cid = st.occupied.get(sq)
    present = st.chars[cid] if cid is not None else None
    if present is not None and not totally_concealed(st, a, present):
        single(run, cmd, dice, a, w, action, sta, present, sq, unseen=False, offer=not resumed)
        return
    single(run, cmd, dice, a, w, action, sta, present, sq, unseen=True, offer=not resumed)
