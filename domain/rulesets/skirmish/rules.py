"""Citations of seed 000 ("Skirmish Combat"): the section names every rule and event quotes.

Each constant is the seed's own heading (or heading / sub-heading), prefixed with "000".
"""

from __future__ import annotations

__all__ = [
    "R_ACTIONS",
    "R_ADJUST",
    "R_ALTERATIONS",
    "R_BARDIC",
    "R_BOONS",
    "R_CHARGE",
    "R_COMMANDER",
    "R_CONDITIONS",
    "R_END",
    "R_FACING",
    "R_FLIGHT",
    "R_FORMATION",
    "R_INITIATIVE",
    "R_LEADER",
    "R_MANEUVERS",
    "R_MELEE",
    "R_MORALE",
    "R_MORALE_DCS",
    "R_MOVEMENT",
    "R_MOVE_TACTICS",
    "R_OPPORTUNITY",
    "R_OPPOSED",
    "R_PHASES",
    "R_PLACEMENT",
    "R_RANGED",
    "R_REFEREE",
    "R_REPRESENTATION",
    "R_ROUTING",
    "R_SETUP",
    "R_SOFT_COVER",
    "R_SOLDIER",
    "R_STRATEGY",
    "R_STRATEGY_CHANGE",
    "R_SURPRISE",
    "R_TACTICS",
    "R_TEAMWORK",
    "R_TERMS",
    "R_ZONES",
]

R_TERMS = "000 Terminology"
R_LEADER = "000 Roles / The Leader"
R_COMMANDER = "000 Roles / The Commander"
R_SOLDIER = "000 Roles / The Soldier"
R_ZONES = "000 The Battlefield"
R_REPRESENTATION = "000 Army Representation"
R_FACING = "000 Army Representation / Facing"
R_FORMATION = "000 Army Representation / Formation"
R_MOVEMENT = "000 Army Representation / Movement & Distance"
R_MORALE = "000 Morale Checks / Morale Modifier"
R_MORALE_DCS = "000 Morale Checks / Morale Check DCs"
R_ROUTING = "000 Morale Checks / Routing"
R_ACTIONS = "000 Actions, Targets, Concentration & Die Rolls"
R_SETUP = "000 Starting Skirmish Combat"
R_SURPRISE = "000 Starting Skirmish Combat / Check for Surprise"
R_INITIATIVE = "000 Starting Skirmish Combat / Roll Tactical Initiative"
R_PLACEMENT = "000 Starting Skirmish Combat / Army Placement"
R_ADJUST = "000 Starting Skirmish Combat / Adjust Tactics"
R_BOONS = "000 Strategy, Tactics & Boons / Boon"
R_STRATEGY = "000 Strategy, Tactics & Boons / Strategy"
R_TACTICS = "000 Strategy, Tactics & Boons / Tactics"
R_PHASES = "000 Phases vs. Rounds"
R_MOVE_TACTICS = "000 Movement & Tactics"
R_STRATEGY_CHANGE = "000 Movement & Tactics / Change Strategy"
R_RANGED = "000 Phases vs. Rounds / Ranged Attacks"
R_MELEE = "000 Phases vs. Rounds / Melee Phase"
R_OPPORTUNITY = "000 Alterations to Standard Combat / Attacks of Opportunity & Movement"
R_END = "000 Ending Skirmish Combat"
R_ALTERATIONS = "000 Alterations to Standard Combat"
R_BARDIC = "000 Alterations to Standard Combat / Bardic Performance"
R_MANEUVERS = "000 Alterations to Standard Combat / Combat Maneuvers"
R_SOFT_COVER = "000 Alterations to Standard Combat / Soft Cover & Firing Into Melee"
R_TEAMWORK = "000 Alterations to Standard Combat / Teamwork Feats"
R_REFEREE = "000 Important Notes (referee's call)"
R_OPPOSED = "000 Morale Checks / Opposed Morale Checks"
R_CHARGE = "000 Army Representation / Movement & Distance (double-move with a charge)"
R_FLIGHT = "000 The Battlefield / Camp Zone (routing armies go towards it)"
R_CONDITIONS = "000 Alterations to Standard Combat / Combat Maneuvers (Conditions & Effects)"
