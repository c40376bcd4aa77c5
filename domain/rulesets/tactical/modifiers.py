"""[Attack Modifiers] of seed 002: combat advantage (flanking, prone, sprinting), cover and
superior cover, concealment, prone and grappled penalties; each with its reason and rule.

An attack's record is read by every side, so no modifier comes from a creature some side
cannot see (DESIGN: no answer or figure may depend on what the reader cannot see; issue
31): an invisible creature other than the attacker and its target neither gives cover nor
flanks. Its name, its square, or a -2 or +2 with no visible cause would tell a side where
it stands ([Targeting What You Can't See §2]: "the GM should not tell you if the creature
was present"). RULINGS, tactical, fixed rulings.
"""

from __future__ import annotations

from domain.rulesets.tactical.geometry import adjacent, flanking_partner
from domain.rulesets.tactical.model import Char, Square, State
from domain.rulesets.tactical.records import Modifier
from domain.rulesets.tactical.rules import R_CA, R_CONCEALMENT, R_CONDITIONS, R_COVER, R_SUPERIOR
from domain.rulesets.tactical.sight import cover_squares

__all__ = [
    "attack_modifiers",
    "cover_modifier",
    "glimpsed",
    "sight_blockers",
    "square_hidden",
    "totally_concealed",
    "unseen_by_some",
]


def sight_blockers(state: State) -> frozenset[Square] | set[Square]:
    """Squares that block line of sight: map squares and standing structures that do."""
    blocks = state.board.blocks_sight
    if not state.built:
        return blocks
    out = set(blocks)
    for sq, sid in state.built.items():
        if state.structures[sid].blocks_sight:
            out.add(sq)
    return out


def totally_concealed(state: State, attacker: Char, t: Char) -> bool:
    """[Total Concealment] / [Invisibility]: unseen, unless glimpsed (§4) or perceived (§1)."""
    unseen = t.has("invisible") or state.board.concealment.get(t.pos) == "total"
    if not unseen:
        return False
    if glimpsed(t):
        return False
    return t.id not in attacker.perceived


def glimpsed(t: Char) -> bool:
    """§4: hit on an unseen square, `t` is only concealed until the end of its next turn."""
    return t.glimpsed_until > 0 and t.glimpsed_until >= t.turns_taken


def square_hidden(c: Char) -> bool:
    """Whether some reader may not know `c`'s square: invisible and not glimpsed (§4: a hit
    on its square told every side where it was). A side that perceived it (§1) knows, the
    others (a third side, the observer) do not: access.view leaves its square out."""
    return c.has("invisible") and not glimpsed(c)


def unseen_by_some(c: Char) -> bool:
    """Whether some side cannot see `c`: invisible, its square known to its side only
    (access.view leaves it out of every other side's view)."""
    return c.has("invisible")


def _conscious_foes_of(state: State, t: Char, attacker: Char) -> dict[Square, str]:
    """Squares of the target's enemies that may flank it with `attacker` (A52); not one
    the target's side cannot see (the record would name it and its corner, issue 31)."""
    out: dict[Square, str] = {}
    hostile = state.board.hostile
    flank_down = state.options.unconscious_flank
    for sq in _around(t.pos):
        cid = state.occupied.get(sq)
        if cid is None or cid == attacker.id:
            continue
        c = state.chars[cid]
        if c.side in hostile[t.side] and (flank_down or not c.down) and not unseen_by_some(c):
            out[sq] = cid
    return out


def _around(sq: Square) -> list[Square]:
    x, y = sq
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def cover_modifier(
    state: State, attacker: Char, target_sq: Square, target: Char | None
) -> list[Modifier]:
    """[Cover] -2 (the event names the square) or [Superior Cover] -8 (map flag or ruling).

    A49: map cover squares, structures that give cover, and creatures allied to the
    target give cover; against an adjacent attacker only terrain does. A50: the worst
    cover counts, once. A creature some side cannot see gives none (issue 31: the record
    would name it and its square, or show a -2 with no visible cause).
    """
    o = state.options
    if target is not None and target.superior_cover:
        return [
            Modifier(
                kind="superior_cover",
                value=-o.superior_cover_penalty,
                reason=f"the referee ruled {target.id} in superior cover",
                rule=R_SUPERIOR,
                characters=(target.id,),
            )
        ]
    near = adjacent(attacker.pos, target_sq)
    cover = state.board.cover
    built = state.built
    structures = state.structures
    occupied = state.occupied
    chars = state.chars
    any_creature = o.cover_creatures == "any"

    def gives(sq: Square) -> bool:
        if cover.get(sq, "none") != "none":
            return True
        sid = built.get(sq)
        if sid is not None and structures[sid].cover != "none":
            return True
        if near:
            return False
        cid = occupied.get(sq)
        if cid is None or cid == attacker.id or target is None or cid == target.id:
            return False
        c = chars[cid]
        return (any_creature or c.side == target.side) and not unseen_by_some(c)

    squares = cover_squares(
        attacker.pos,
        target_sq,
        gives,
        pinch_covers=state.options.pinch_gives_cover,
        among=(cover, built, occupied),  # what `gives` can say yes to
    )
    if not squares:
        return []
    superior = [
        sq
        for sq in squares
        if cover.get(sq) == "superior"
        or (sq in built and structures[built[sq]].cover == "superior")
    ]
    if superior:
        return [
            Modifier(
                kind="superior_cover",
                value=-o.superior_cover_penalty,
                reason="superior cover (map)",
                rule=R_SUPERIOR,
                squares=(superior[0],),
            )
        ]
    sq = squares[0]
    who = occupied.get(sq)
    what = f"{who} stands in between" if who and sq not in cover else "cover on the map"
    return [
        Modifier(
            kind="cover",
            value=-o.cover_penalty,
            reason=what,
            rule=R_COVER,
            squares=(sq,),
            characters=(who,) if who and sq not in cover else (),
        )
    ]


def attack_modifiers(
    state: State, a: Char, t: Char, kind: str, *, perceived_unseen: bool = False
) -> list[Modifier]:
    """Every modifier of an attack by `a` on character `t` with a `kind` attack."""
    o = state.options
    mods: list[Modifier] = []
    # [Combat Advantage]: +2 once (A51), whatever its sources
    sources: list[str] = []
    who: list[str] = []
    melee = kind == "melee"
    # an attacker whose square some reader may not know flanks with no one (0.5.0): its
    # record is public and the flanking named the one corner it stood on (issue 31's call
    # for an invisible third party, RULINGS "Modifiers from creatures a side cannot see")
    if adjacent(a.pos, t.pos) and (melee or not o.flank_melee_only) and not square_hidden(a):
        foes = _conscious_foes_of(state, t, a)
        partner = flanking_partner(t.pos, a.pos, set(foes)) if foes else None
        if partner is not None:
            sources.append(f"flanking {t.id} with {foes[partner]}")
            who += [a.id, foes[partner]]
    if melee and t.has("prone"):
        sources.append(f"{t.id} is prone (melee)")
    if t.sprinting:
        sources.append(f"{t.id} sprinted")
    if o.unconscious_grants_ca and t.has("unconscious"):
        sources.append(f"{t.id} is unconscious")
    if sources:
        mods.append(
            Modifier(
                kind="combat_advantage",
                value=o.combat_advantage,
                reason="; ".join(sources),
                rule=R_CA,
                characters=tuple(who) or (t.id,),
            )
        )
    if t.has("exposed") and o.exposed_bonus == "to_roll":
        mods.append(
            Modifier(
                kind="exposed",
                value=o.exposed_amount,
                reason=f"{t.id} is exposed (A24: to the roll)",
                rule=R_CONDITIONS,
            )
        )
    if not melee and t.has("prone"):
        mods.append(
            Modifier(kind="prone", value=-2, reason=f"{t.id} is prone (ranged)", rule=R_CONDITIONS)
        )
    if a.has("grappled"):
        mods.append(
            Modifier(kind="grappled", value=-2, reason=f"{a.id} is grappled", rule=R_CONDITIONS)
        )
    mods += cover_modifier(state, a, t.pos, t)
    partial = t.concealed or state.board.concealment.get(t.pos) == "partial"
    if perceived_unseen:
        mods.append(
            Modifier(
                kind="concealment",
                value=-o.perceived_penalty,
                reason=f"{t.id} has total concealment but was perceived or glimpsed (A55)",
                rule=R_CONCEALMENT,
            )
        )
    elif partial:
        mods.append(
            Modifier(
                kind="concealment",
                value=-o.concealment_penalty,
                reason=f"{t.id} is concealed",
                rule=R_CONCEALMENT,
            )
        )
    return mods
