"""The steps of the arithmetic alterations (seed 000 "Alterations to Standard Combat": "Soft
Cover & Firing Into Melee", "Bardic Performance", "Teamwork Feats") as a player reads them,
compared whole, and the label of a diverted volley."""

from __future__ import annotations

from fractions import Fraction

from domain.rulesets.skirmish.resolution import (
    affected_targets,
    bardic_performance_radius,
    diversion_percent,
    divert_successes,
    teamwork_participants,
)
from domain.rulesets.skirmish.resolution.model import Step
from tests.unit.skirmish.test_resolution_alterations import VOLLEY

_ALTER = "Alterations to Standard Combat"
SOFT_COVER = f"{_ALTER} / Ranged Attacks / Soft Cover & Firing Into Melee"
BARDIC, TEAMWORK = f"{_ALTER} / Bardic Performance", f"{_ALTER} / Teamwork Feats"


def _seen(*steps: Step) -> list[tuple[str, str, str, str]]:
    return [(s.name, s.shown, s.formula, s.rule) for s in steps]


def test_the_diverted_percentage_names_each_circumstance() -> None:
    _, s = diversion_percent(True, True, precise_shot=True)
    assert _seen(s) == [
        (
            "diverted percentage",
            "25",
            "soft cover True, firing into melee True (Precise Shot True), indirect fire False",
            SOFT_COVER,
        )
    ]


def test_the_diverted_die_rolls_and_the_diverted_volleys_label() -> None:
    d = divert_successes(VOLLEY, 25)
    assert _seen(*d.steps) == [
        ("diverted successful die rolls", "5", "22 x 25%, rounded down", SOFT_COVER),
        ("diverted critical die rolls", "0", "3 x 25%, rounded down", SOFT_COVER),
    ]
    assert d.diverted.label == "crossbows (diverted)"
    assert divert_successes(VOLLEY, 25, "to orcs").diverted.label == "to orcs"


def test_the_bardic_radius_and_teamwork_participants() -> None:
    assert _seen(
        bardic_performance_radius(-3)[2],
        teamwork_participants(Fraction(5, 2), 2)[2],
        teamwork_participants(4)[2],
    ) == [
        ("bardic performance radius (ft)", "0", "100' + 50' x -3 Charisma, min 0", BARDIC),
        (
            "teamwork participants",
            "2",
            "density 5/2, rounded down, min 1, limited by the feat to 2",
            TEAMWORK,
        ),
        ("teamwork participants", "4", "density 4, rounded down, min 1", TEAMWORK),
    ]


def test_the_affected_soldiers_of_each_kind_of_die_roll_are_explained() -> None:
    """ "Terminology" (Targets, Successful / Critical / Failed; Affected Soldiers)."""
    terms = "Terminology"
    assert _seen(*affected_targets(VOLLEY).steps) == [
        (
            "successful targets",
            "11",
            "22 die rolls / 2.00 concentration, rounded down, max 25",
            terms,
        ),
        ("critical targets", "1", "3 die rolls / 2.00 concentration, rounded down, max 25", terms),
        (
            "unsuccessful targets",
            "12",
            "25 die rolls / 2.00 concentration, rounded down, max 25",
            terms,
        ),
    ]


def test_a_feat_limited_to_one_participant_has_one() -> None:
    n, allies, _ = teamwork_participants(4, 1)
    assert (n, allies) == (1, 0)
    assert teamwork_participants(Fraction(7, 2))[:2] == (3, 2)
