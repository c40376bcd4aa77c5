"""Given/when/then: the arithmetic "Alterations to Standard Combat" of seed 000: soft cover
and firing into melee (25% / 50% diverted), teamwork feats by density, bardic radius."""

from __future__ import annotations

from fractions import Fraction

from domain.rulesets.skirmish.resolution import (
    AdvSet,
    DiversionCandidate,
    ResolutionOptions,
    TargetArmy,
    TypedAdv,
    Volley,
    affected_targets,
    apply_phase_damage,
    bardic_performance_radius,
    choose_diversion_recipient,
    diversion_percent,
    divert_successes,
    exact,
    teamwork_participants,
)

ADV = AdvSet(
    option="x",
    successful=(TypedAdv(damage_type="piercing", adv=5),),
    critical=(TypedAdv(damage_type="piercing", adv=11),),
    unsuccessful=(),
    steps=(),
)
VOLLEY = Volley(
    label="crossbows",
    targets=25,
    concentration=exact(2),
    successful=22,
    critical=3,
    unsuccessful=25,
    adv=ADV,
)


def test_affected_targets_are_die_rolls_over_concentration() -> None:
    a = affected_targets(VOLLEY)
    assert (a.successful, a.critical, a.unsuccessful) == (11, 1, 12)  # 22/2, 3/2, 25/2
    many = Volley(
        targets=5, concentration=exact(1), successful=9, critical=0, unsuccessful=0, adv=ADV
    )
    assert affected_targets(many).successful == 5


def test_one_circumstance_diverts_25_percent() -> None:
    assert diversion_percent(soft_cover=True, firing_into_melee=False)[0] == 25
    assert diversion_percent(soft_cover=False, firing_into_melee=True)[0] == 25


def test_both_circumstances_divert_50_percent() -> None:
    assert diversion_percent(soft_cover=True, firing_into_melee=True)[0] == 50


def test_precise_shot_and_indirect_fire() -> None:
    assert diversion_percent(False, True, precise_shot=True)[0] == 0
    assert diversion_percent(True, True, precise_shot=True)[0] == 25
    assert diversion_percent(True, True, indirect_fire=True)[0] == 0


def test_diversion_percentages_are_options() -> None:
    opts = ResolutionOptions(diversion_one_percent=20, diversion_both_percent=40)
    assert diversion_percent(True, True, options=opts)[0] == 40


def test_diverted_successes_are_rounded_down() -> None:
    d = divert_successes(VOLLEY, 25)
    assert (d.diverted.successful, d.diverted.critical) == (5, 0)  # 5.5 -> 5, 0.75 -> 0
    assert (d.kept.successful, d.kept.critical) == (17, 3)
    assert d.kept.unsuccessful == 25
    assert d.diverted.targets == 5
    d = divert_successes(VOLLEY, 50)
    assert (d.diverted.successful, d.diverted.critical) == (11, 1)
    assert (d.kept.successful, d.kept.critical) == (11, 2)


def test_diverted_volley_damages_the_army_in_the_way() -> None:
    other = TargetArmy(
        army_size=50, maximum_army_size=50, total_army_hp=400, maximum_soldier_hp=exact(8)
    )
    d = divert_successes(VOLLEY, 50)
    p = apply_phase_damage(other, (d.diverted,))
    assert p.damage == 11 * 5 + 1 * 11


def test_diverted_actions_go_to_the_soft_cover_with_the_highest_army_size() -> None:
    a = DiversionCandidate(army_id="a", army_size=300, provides_soft_cover=False)
    b = DiversionCandidate(army_id="b", army_size=100, provides_soft_cover=True)
    c = DiversionCandidate(army_id="c", army_size=200, provides_soft_cover=True)
    picked = choose_diversion_recipient((a, b, c))
    assert picked is not None and picked.army_id == "c"
    picked = choose_diversion_recipient((a,))
    assert picked is not None and picked.army_id == "a"
    assert choose_diversion_recipient(()) is None


def test_teamwork_feats_count_soldiers_by_density() -> None:
    assert teamwork_participants(16)[:2] == (16, 15)
    assert teamwork_participants(16, feat_limit=4)[:2] == (4, 3)
    assert teamwork_participants(Fraction(1, 2))[:2] == (1, 0)
    assert teamwork_participants(exact(4))[:2] == (4, 3)


def test_bardic_performance_radius() -> None:
    assert bardic_performance_radius(3)[:2] == (250, 25)
    assert bardic_performance_radius(0)[:2] == (100, 10)
    assert bardic_performance_radius(-3)[:2] == (0, 0)
    opts = ResolutionOptions(bardic_radius_base_ft=105)
    assert bardic_performance_radius(0, opts)[:2] == (105, 11)  # 5' increments round up
