"""Three-handed gin "in the box": kept here for older imports; it lives in ``rummylab.gin.three_handed``."""

from .gin.three_handed import (  # noqa: F401
    GAME,
    HandSummary,
    Result,
    Roles,
    State,
    apply,
    draw_for_roles,
    history_json,
    legal_actions,
    new_game,
    next_roles,
    play_game,
    replay,
    simulate,
    sitter_advice,
    trace,
)
