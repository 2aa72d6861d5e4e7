"""Cards in the student's language: their names ("पान का बादशाह", "popă de inimă roșie"), their short
form ("R♥"), and cards read from what a student types in her language as well as "KH".

Every word comes from the catalog (contexts "card rank", "card suit", "typed rank", "typed suit",
"typed word"), so a language added as a catalog brings its cards with it.
"""

from __future__ import annotations

import re
import unicodedata

from ..cards import RANKS, SUIT_SYMBOLS, SUITS, Card, parse_cards
from . import NP_, _, pgettext, typed_forms, using

RANK_WORDS = (NP_("card rank", "ace"), NP_("card rank", "two"), NP_("card rank", "three"), NP_("card rank", "four"),
              NP_("card rank", "five"), NP_("card rank", "six"), NP_("card rank", "seven"),
              NP_("card rank", "eight"), NP_("card rank", "nine"), NP_("card rank", "ten"),
              NP_("card rank", "jack"), NP_("card rank", "queen"), NP_("card rank", "king"))
"""The ranks' names, A … K."""
SUIT_WORDS = (NP_("card suit", "spades"), NP_("card suit", "hearts"), NP_("card suit", "diamonds"),
              NP_("card suit", "clubs"))
"""The suits' names, S H D C."""
JOKER_WORD = NP_("card rank", "joker")
CARD_NAME = NP_("card name", "{rank} of {suit}")
"""How a card is named: Hindi puts the suit first ("{suit} का {rank}")."""
TYPED = (NP_("typed rank", "A"), NP_("typed rank", "J"), NP_("typed rank", "Q"), NP_("typed rank", "K"),
         NP_("typed suit", "S"), NP_("typed suit", "H"), NP_("typed suit", "D"), NP_("typed suit", "C"),
         NP_("typed word", "JK"), NP_("typed word", "of"), NP_("typed word", "yes"), NP_("typed word", "no"))
"""What a student may type in her language, each a list of forms separated by "|": for a rank or
a suit (by its letter: the first form of a rank is its letter on a card), a joker, the words
between a rank and a suit ("of": "का|की|के", "de"), yes and no."""
_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")


def rank_name(rank: int) -> str:
    """Rank ``rank`` (0: ace … 12: king) in words, in the language in use."""
    return pgettext("card rank", RANK_WORDS[rank])


def suit_name(suit: int) -> str:
    """Suit ``suit`` (0..3: S H D C) in words, in the language in use."""
    return pgettext("card suit", SUIT_WORDS[suit])


def card_name(card: Card | str) -> str:
    """The card in words ("king of hearts"; Hindi "पान का बादशाह"; Romanian "popă de inimă roșie")."""
    c = Card.parse(card) if isinstance(card, str) else card
    if c.is_joker:
        return pgettext("card rank", JOKER_WORD)
    return pgettext("card name", CARD_NAME).format(rank=rank_name(c.rank), suit=suit_name(c.suit))


def short_rank(rank: int) -> str:
    """The rank as a student of the language in use writes it on a card ("R" for a Romanian king)."""
    if RANKS[rank] in "AJQK":
        return typed_forms("typed rank", RANKS[rank])[0]
    return "10" if rank == 9 else RANKS[rank]


def short_name(card: Card | str) -> str:
    """The card's short form with its suit symbol ("K♥"; Romanian "R♥")."""
    c = Card.parse(card) if isinstance(card, str) else card
    return "🃏" if c.is_joker else short_rank(c.rank) + SUIT_SYMBOLS[c.suit]


def fold(text: str) -> str:
    """``text`` as it is compared: lower case, Devanagari digits as digits, Latin accents taken away
    (a student may type "inima rosie"), Devanagari kept whole (NFC)."""
    text = unicodedata.normalize("NFC", text.lower().translate(_DIGITS)).replace("ş", "ș").replace("ţ", "ț")
    return "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not (unicodedata.combining(ch) and ord(ch) < 0x0900)).replace(" ", " ")


def _tables() -> tuple[dict[str, int], dict[str, int], set[str], set[str]]:
    """(typed rank -> rank, typed suit -> suit, joker words, linking words), folded."""
    ranks: dict[str, int] = {}
    for r, letter in enumerate(RANKS):
        for form in [*typed_forms("typed rank", letter), pgettext("card rank", RANK_WORDS[r])]:
            ranks[fold(form)] = r
        if 1 <= r <= 9:
            ranks[str(r + 1)] = r  # 2 … 10
    suits: dict[str, int] = {}
    for s, letter in enumerate(SUITS):
        for form in [*typed_forms("typed suit", letter), pgettext("card suit", SUIT_WORDS[s]), SUIT_SYMBOLS[s]]:
            suits[fold(form)] = s
    jokers = {fold(f) for f in [*typed_forms("typed word", "JK"), pgettext("card rank", JOKER_WORD)]}
    links = {fold(f) for f in typed_forms("typed word", "of")}
    return ranks, suits, jokers, links


def parse_local(text: str, lang: str | None = None) -> list[Card]:
    """Cards read from ``text`` in the notation of ``lang`` (default: the language in use) or as
    cards are written everywhere ("KH 10♥"): "बादशाह पान", "पान का बादशाह", "R♥", "popă de inimă roșie".
    ValueError names the first word that is no card."""
    with using(lang):
        ranks, suits, jokers, links = _tables()
        words, typed = _words(text, [*ranks, *suits, *jokers])
        out: list[Card] = []
        i = 0
        while i < len(words):
            card, used = _read_card(words, i, ranks, suits, jokers, links)
            if card is None:
                raise ValueError(_("{word} is not a card (write cards as {example})").format(word=repr(typed[i]),
                                                                                            example=_example()))
            out.append(card)
            i += used
        return out


def _words(text: str, phrases: list[str]) -> tuple[list[str], list[str]]:
    """``text`` split into words, folded and as typed; a phrase of several words ("inimă roșie")
    is one word."""
    typed = [w for w in re.split(r"[\s,;]+", text) if w]
    folded = [fold(w) for w in typed]
    longest = max((p.count(" ") + 1 for p in phrases), default=1)
    out_f: list[str] = []
    out_t: list[str] = []
    i = 0
    while i < len(folded):
        for n in range(min(longest, len(folded) - i), 0, -1):
            if n == 1 or " ".join(folded[i:i + n]) in phrases:
                out_f.append(" ".join(folded[i:i + n]))
                out_t.append(" ".join(typed[i:i + n]))
                i += n
                break
    return out_f, out_t


def _read_card(words: list[str], i: int, ranks: dict[str, int], suits: dict[str, int], jokers: set[str],
               links: set[str]) -> tuple[Card | None, int]:
    """The card that starts at ``words[i]`` and how many words it took (None: no card there)."""
    word = words[i]
    if word in jokers:
        return Card(13, 4), 1
    for first, second, make in ((ranks, suits, lambda a, b: Card(a, b)), (suits, ranks, lambda a, b: Card(b, a))):
        if word in first:  # before the notation: Romanian "as de pică" is an ace, not "AS"
            j = i + 1 + (i + 1 < len(words) and words[i + 1] in links)
            if j < len(words) and words[j] in second:
                return make(first[word], second[words[j]]), j - i + 1
    try:
        return parse_cards(word)[0], 1
    except (ValueError, IndexError):
        pass
    for cut in range(len(word) - 1, 0, -1):  # "r♥", "10♦", "d c"
        if word[:cut] in ranks and word[cut:] in suits:
            return Card(ranks[word[:cut]], suits[word[cut:]]), 1
        if word[:cut] in ranks and word[cut:].upper() in SUITS:
            return Card(ranks[word[:cut]], SUITS.index(word[cut:].upper())), 1
    return None, 0


def _example() -> str:
    """Two ways to write a card in the language in use."""
    return f"KH, {short_name(Card(12, 1))}, {card_name(Card(12, 1))}"
