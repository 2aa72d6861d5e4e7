"""Kinds of answers: how a typed answer and the right one are read, compared and shown.

A kind reads any form a student may type or a lesson may compute (``52`` or ``"52"``; ``"KD"``,
``"kd"``, ``"K♦"`` or a ``Card``) into one normal form, so a right answer, a student's answer and
a teacher's list of common mistakes meet in the same form.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..cards import Card, parse_cards
from ..i18n import N_, PSEUDO, _, gettext, language, typed_forms
from ..i18n.card_names import fold, parse_local

Normal = Any
"""A normalised answer: hashable, compared with ``==`` (or the kind's own ``right``)."""


@dataclass(frozen=True, kw_only=True)
class Kind:
    """One kind of answer: ``read`` turns an answer (typed or computed) into its normal form,
    ``show`` gives that form as a student would type it, ``right`` says whether a normal given
    answer is right for the normal answer."""

    name: str
    what: str
    """What a student types, for a message: "a number", "cards such as KD 7H"."""
    read: Callable[[Any], Normal]
    show: Callable[[Normal], str]
    right: Callable[[Normal, Normal], bool] = lambda given, answer: bool(given == answer)
    example: Callable[[Normal], str] | None = None
    """One right answer as a student types it, where ``show`` lists several (default: ``show``)."""
    told: Callable[[Normal], str] | None = None
    """The right answer as told to a person, where it reads otherwise than an answer given ("QD or
    KS": either card is right; default: ``show``)."""

    def typed(self, answer: Normal) -> str:
        """A right answer as a student would type it."""
        return (self.example or self.show)(answer)

    def tell(self, answer: Normal) -> str:
        """The right answer as told to a student or a teacher (the key, the feedback)."""
        return (self.told or self.show)(answer)


def _number(x: Any) -> float | int:
    if isinstance(x, bool):
        raise ValueError(_("{typed} is yes/no, not a number").format(typed=x))
    if isinstance(x, int | float):
        value: float | int = x
    else:
        typed = str(x).strip()
        percent = typed.endswith("%")
        found = _local_number(typed.rstrip("%").strip())
        try:
            value = found if found is not None else float(typed.rstrip("%").strip().replace(",", "").replace("_", ""))
        except ValueError:
            raise ValueError(_("{typed} is not a number").format(typed=repr(typed))) from None
        if percent:
            value /= 100
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(_("{typed} is not a number").format(typed=x))
    return int(value) if float(value).is_integer() else float(value)


def _local_number(text: str) -> float | None:
    """A number as the language in use writes it ("0,25" and "15.820.024" in Romanian: what its tables
    show), read by Babel; None where it is not one (a student may type it the English way too)."""
    from babel import UnknownLocaleError
    from babel.numbers import NumberFormatError, parse_decimal

    lang = language()
    if lang in ("en", PSEUDO):
        return None
    try:
        return float(parse_decimal(text, locale=lang, strict=True))
    except (NumberFormatError, ValueError, LookupError, UnknownLocaleError):  # or a language Babel does not know
        return None


def _show_number(x: float | int) -> str:
    """A number as a student types it: short where that is exact (0.25), else in full, so that what
    is shown reads back as the same number (the hub service grades what is shown)."""
    if isinstance(x, int):
        return str(x)
    short = f"{x:g}"
    return short if float(short) == x else repr(x)


_WORDS = re.compile(r"[\s_]+")


def _text(x: Any) -> str:
    """A text answer's normal form: its words lower case, spaced once, without Latin accents (a student
    may type "capitan" for "căpitan"; Devanagari stays whole)."""
    text = fold(_WORDS.sub(" ", str(x)).strip().strip(".!").strip())
    if not text:
        raise ValueError(_("the answer is empty"))
    for word in ("yes", "no"):  # "da", "हाँ": a lesson's "yes" in the student's language
        if text in {fold(w) for w in _typed(word)}:
            return word
    return text


YES = ("yes", "y", "true", "1")
NO = ("no", "n", "false", "0")


def _typed(word: str) -> set[str]:
    """How a student says ``word`` ("yes", "no") in the language in use (the catalog's "|" list)."""
    return {f.lower() for f in typed_forms("typed word", word)}


def in_her_words(text: str) -> str:
    """An answer in its normal form as the student's language says it: "yes, 12" is "da, 12" in
    Romanian (what is recorded stays the normal form)."""
    if language() == "en":
        return text
    return ", ".join(_typed_word(part) if part in ("yes", "no") else part for part in text.split(", "))


def _typed_word(word: str) -> str:
    """``word`` ("yes", "no") as a student of the language in use writes it: the first of its forms."""
    return typed_forms("typed word", word)[0]


def _yes_no(x: Any) -> bool:
    if isinstance(x, bool):
        return x
    text = str(x).strip().strip(".!").lower()
    if text in YES or text in _typed("yes"):
        return True
    if text in NO or text in _typed("no"):
        return False
    raise ValueError(_("{typed}: answer yes or no").format(typed=repr(str(x).strip())))


def _cards(x: Any) -> tuple[str, ...]:
    """Cards in any notation and order, as their two-character names in the cards' own order (A 2 …
    K within a suit, rank then suit, jokers last: ``Card``'s order; two decks allowed)."""
    if isinstance(x, str) and re.search(r"[,|;]", x):
        x = re.sub(r"[,|;]", " ", x)
    if isinstance(x, str) and language() != "en":
        try:
            parse_cards(x, copies=2, jokers=4)
        except ValueError:  # cards in the student's own words ("पान का बादशाह"): as "KH"
            x = " ".join(str(c) for c in parse_local(x))
    cards = parse_cards(_flat(x), copies=2, jokers=4)
    if not cards:
        raise ValueError(_("no cards given"))
    return tuple(str(c) for c in sorted(cards))


def _in_order(names: Iterable[str]) -> list[str]:
    """Card names (normal, from ``_cards``) in the cards' own order."""
    return sorted(names, key=Card.parse)


def _flat(x: Any) -> Any:
    """Cards from nested groups or melds (``Meld.cards``) as one flat list."""
    if isinstance(x, str | Card):
        return x
    if hasattr(x, "cards"):
        return _flat(x.cards)
    return [c for part in x for c in (_flat(part) if not isinstance(part, str | Card) else [part])]


def _card_set(x: Any) -> frozenset[str]:
    return frozenset(_cards(x))


def _melds(x: Any) -> tuple[tuple[str, ...], ...]:
    """An arrangement of melds: typed as groups split by ``|``, ``;`` or ``,`` ("AS 2S 3S | 7H 7D 7C"),
    or computed (melds, groups of cards); any order of melds and of cards in each."""
    if isinstance(x, str):
        groups: list[Any] = [g for g in re.split(r"[|;,/]", x) if g.strip()]
    elif hasattr(x, "melds"):
        groups = list(x.melds)
    else:
        groups = list(x)
        if groups and all(isinstance(g, str | Card) and len(parse_cards(g, copies=2, jokers=4)) == 1 for g in groups):
            raise ValueError(_("a meld arrangement is groups of cards: split the melds with |"))
    if not groups:
        raise ValueError(_("no melds given"))
    return tuple(sorted((_cards(g) for g in groups), key=lambda m: [Card.parse(c) for c in m]))


def _tuple(x: Any) -> tuple[Any, ...]:
    """An answer's parts: split by ";" where it has one (a Romanian "da; 0,5" keeps its decimal comma),
    else by commas."""
    if isinstance(x, str):
        x = [part for part in x.split(";" if ";" in x else ",")]
    return tuple(x)


NUMBER = Kind(name="number", what=N_("a number"), read=_number, show=_show_number)
TEXT = Kind(name="text", what=N_("a word or a few"), read=_text, show=str)
YES_NO = Kind(name="yes/no", what=N_("yes or no"), read=_yes_no, show=lambda b: "yes" if b else "no")
CARDS = Kind(name="cards", what=N_("cards such as KD 7H"), read=_cards, show=" ".join)
ANY_CARD = Kind(name="any card of", what=N_("a card such as KD"), read=_card_set, show=lambda s: " ".join(_in_order(s)),
                right=lambda given, answer: bool(given) and given <= answer,
                told=lambda s: _(" or ").join(_in_order(s)))
"""A set of acceptable cards: a student who names any of them (one or several) is right; the
answer is told "QD or KS", a student's answer "QD KS" (she named both)."""
MELDS = Kind(name="melds", what=N_("melds split by |, such as AS 2S 3S | 7H 7D 7C"), read=_melds,
             show=lambda ms: " | ".join(" ".join(m) for m in ms))
ONE_OF = Kind(name="one of", what=N_("a word"), read=lambda x: frozenset(_text(v) for v in _iterable(x)),
              show=lambda s: " or ".join(sorted(s)), told=lambda s: _(" or ").join(sorted(s)),
              right=lambda given, answer: bool(given) and given <= answer,
              example=lambda s: sorted(s)[0])
"""Several acceptable texts ({"T", "10"}): any one is right."""

KINDS = {k.name: k for k in (NUMBER, TEXT, YES_NO, CARDS, ANY_CARD, MELDS, ONE_OF)}


def _iterable(x: Any) -> Iterable[Any]:
    return x if isinstance(x, set | frozenset | list | tuple) else [x]


def infer(answer: Any) -> Kind:
    """The kind an answer calls for: a bool is yes/no, a number a number, a card or cards
    (a string of them, a list, a hand) are cards in any order, a set of cards is any one of
    them, melds are an arrangement, a set of words any one of them, other text is text."""
    if isinstance(answer, bool):
        return YES_NO
    if isinstance(answer, int | float):
        return NUMBER
    if isinstance(answer, Card):
        return CARDS
    if hasattr(answer, "melds") or _is_meld_list(answer):
        return MELDS
    if isinstance(answer, set | frozenset):
        if answer and all(isinstance(a, str) and not _parses_as_cards(a) for a in answer):
            return ONE_OF
        return ANY_CARD
    if isinstance(answer, str):  # a typo in one card ("KD 1S") is named, not taken for words
        return CARDS if any(_parses_as_cards(t) for t in re.split(r"[\s,|;]+", answer)) else TEXT
    if isinstance(answer, list | tuple) and answer and all(
            isinstance(c, Card) or (isinstance(c, str) and _parses_as_cards(c)) for c in answer):
        return CARDS
    raise ValueError(f"answer {answer!r}: give kind= (one of {', '.join(KINDS)}), or a tuple of parts")


def _parses_as_cards(text: str) -> bool:
    try:
        return bool(parse_cards(text, copies=2, jokers=4))
    except ValueError:
        return False


def _is_meld_list(x: Any) -> bool:
    if isinstance(x, str | set | frozenset | Card) or not isinstance(x, Iterable):
        return False
    parts = list(x)
    return bool(parts) and all(hasattr(p, "cards") or (isinstance(p, list | tuple) and len(p) > 1
                                                       and all(isinstance(c, Card | str) for c in p)) for p in parts)


@dataclass(frozen=True, kw_only=True)
class Parts:
    """An answer of several parts, each its own kind: ``("defender", 28)`` is typed "defender, 28"."""

    kinds: tuple[Kind, ...]

    @property
    def name(self) -> str:
        return "(" + ", ".join(k.name for k in self.kinds) + ")"

    @property
    def what(self) -> str:
        return ", ".join(gettext(k.what) for k in self.kinds) + gettext(", split by commas")

    def read(self, x: Any) -> tuple[Any, ...]:
        parts = _tuple(x)
        if len(parts) != len(self.kinds):
            raise ValueError(_("give {n} parts split by commas ({what})").format(n=len(self.kinds), what=self.what))
        return tuple(k.read(p) for k, p in zip(self.kinds, parts, strict=True))

    def show(self, x: tuple[Any, ...]) -> str:
        return ", ".join(k.show(p) for k, p in zip(self.kinds, x, strict=True))

    def typed(self, x: tuple[Any, ...]) -> str:
        return ", ".join(k.typed(p) for k, p in zip(self.kinds, x, strict=True))

    def tell(self, x: tuple[Any, ...]) -> str:
        return ", ".join(k.tell(p) for k, p in zip(self.kinds, x, strict=True))

    def right(self, given: tuple[Any, ...], answer: tuple[Any, ...]) -> bool:
        return all(k.right(g, a) for k, g, a in zip(self.kinds, given, answer, strict=True))


AnyKind = Kind | Parts


def kind_of(answer: Any, kind: str | None) -> AnyKind:
    """The kind named (``"number"``, ``"cards"``…), or the one the answer calls for."""
    if kind is not None:
        if kind not in KINDS:
            raise ValueError(f"kind={kind!r}: one of {', '.join(KINDS)}")
        return KINDS[kind]
    if isinstance(answer, tuple) and answer and not _is_meld_list(answer) and not all(
            isinstance(c, Card) for c in answer):
        return Parts(kinds=tuple(infer(part) for part in answer))
    return infer(answer)
