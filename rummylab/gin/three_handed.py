"""Three-handed gin "in the box" (docs/rules.md) under one name, as the public API has it
(``rummylab.three_handed``): the game (``box_game``: roles, hands, moves, histories) and its
simulation (``box_simulation``: many games at once, a row a hand)."""

from __future__ import annotations

from .box_game import (
    GAME,
    PLAYERS,
    ROLE_ORDERS,
    HandSummary,
    Result,
    Roles,
    State,
    apply,
    draw_for_roles,
    final_scores,
    history_json,
    legal_actions,
    new_game,
    next_roles,
    play_game,
    replay,
    roles_drawn,
    sitter_advice,
)
from .box_simulation import BOX_COLUMNS, FAMILY, box_frame, box_turns, play_chunk, play_engine, simulate, trace
from .rules import THREE_HANDED, Rules

__all__ = ["BOX_COLUMNS", "FAMILY", "GAME", "PLAYERS", "ROLE_ORDERS", "THREE_HANDED", "HandSummary", "Result", "Roles",
           "Rules", "State",
           "apply", "box_frame", "box_turns", "draw_for_roles", "final_scores", "history_json", "legal_actions",
           "new_game", "next_roles", "play_chunk", "play_engine", "play_game", "replay", "roles_drawn",
           "sitter_advice", "simulate", "trace"]
