"""Indian 13-card rummy: two decks and printed jokers, a cut wild joker, pure sequences."""

from .analysis import (
    Declaration,
    LoserPoints,
    best_declaration,
    check_declaration,
    classify_group,
    explain_group,
    loser_points,
    loser_points_after_discard,
    loser_points_batch,
)
from .deal import random_cuts, random_hands
from .evaluation import evaluate
from .game import Action, IllegalAction, Phase, State, apply, history_json, legal_actions, new_game, replay, standings
from .players import GreedyBot, RandomBot
from .pools import PoolStatus, pool_status
from .rules import BRIEF, DEFAULT, POINTS, Rules, wild_rank_for_cut
from .simulation import simulate

__all__ = [
    "Action",
    "GreedyBot",
    "IllegalAction",
    "Phase",
    "RandomBot",
    "State",
    "apply",
    "evaluate",
    "history_json",
    "legal_actions",
    "new_game",
    "random_cuts",
    "random_hands",
    "replay",
    "simulate",
    "standings",
    "BRIEF",
    "DEFAULT",
    "POINTS",
    "Declaration",
    "LoserPoints",
    "PoolStatus",
    "Rules",
    "best_declaration",
    "check_declaration",
    "classify_group",
    "explain_group",
    "loser_points",
    "loser_points_after_discard",
    "loser_points_batch",
    "pool_status",
    "wild_rank_for_cut",
]
