"""Variants of an exercise: every student her own, another once she answered it, the same after a
reload. The streams they are drawn from are defined here, once.

An exercise defined with ``variants=make`` has ``VARIANTS`` variants, numbered; variant ``n`` is
``make(rng)`` where ``rng`` is the chance stream of (lesson, exercise) and ``n``
(``variant_rng``), so the teacher's key, the server's grade and every student's kernel see the
same variant ``n``. A student meets the numbers in an order of her own (``variant_number``: a
permutation drawn from the stream of (lesson, exercise, student)); her ``attempt`` counts the
variants she has answered right, so she keeps a variant until she answers it, and the next one
(*Another one*, or a reload) is fresh for ``VARIANTS`` answers. A student is her hub login on a
hub, else the name she typed; before she types one (a laptop's class) she sees the class's order,
student "".
"""

from __future__ import annotations

import hashlib

import numpy as np

from ..chance import stream

VARIANTS = 64
"""Variants of a variant exercise: enough that neighbours differ (63 in 64) and a student can
practise one skill many times; few enough for the preflight and the key to check every one."""
FAMILY = "lessons"
"""The chance streams' family name (``rummylab.chance``)."""


def text_seed(text: str) -> int:
    """A 64-bit seed named by ``text`` (its BLAKE2b digest): the same on every machine."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def variant_rng(lesson: str, exercise: str, number: int) -> np.random.Generator:
    """The generator variant ``number`` of ``exercise`` (in ``lesson``) is drawn from."""
    check_number(number)
    return stream(FAMILY, text_seed(f"{lesson}/{exercise}"), "variant", number)


def variant_number(lesson: str, exercise: str, student: str, attempt: int) -> int:
    """The variant ``student`` meets at her ``attempt`` (0 first) of ``exercise``."""
    if not isinstance(attempt, int) or attempt < 0:
        raise ValueError(f"attempt {attempt!r}: a count of answers, 0 or more")
    order = stream(FAMILY, text_seed(f"{lesson}/{exercise}/{student}"), "order").permutation(VARIANTS)
    return int(order[attempt % VARIANTS])


def check_number(number: object) -> int:
    """``number`` as a variant number; ValueError names a bad one."""
    if isinstance(number, bool) or not isinstance(number, int | np.integer) or not 0 <= number < VARIANTS:
        raise ValueError(f"variant {number!r}: a whole number from 0 to {VARIANTS - 1}")
    return int(number)
