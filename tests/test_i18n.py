"""Languages: the catalogs are complete and current, cards are named and read back in every
language, a check's feedback comes in the student's language, lessons are built from their
catalogs with their code unchanged."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from rummylab import i18n
from rummylab.cards import DECK, JOKER, Card
from rummylab.i18n import build, catalogs
from rummylab.i18n.card_names import card_name, parse_local, short_name
from rummylab.lessons import translate

pytestmark = pytest.mark.once  # no kernel: the compiled run has it

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SHIPPED = ("hi", "ro")


def test_the_shipped_languages_are_found():
    assert set(SHIPPED) <= set(i18n.languages()) and i18n.languages()[0] == "en"


@pytest.mark.parametrize("bad", ["xx", "", "hindi", 3])
def test_an_unknown_language_is_refused_by_name(bad):
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        i18n.set_language(bad)


def test_the_language_of_a_kernel_comes_from_its_environment(monkeypatch):
    monkeypatch.setenv(i18n.LANG_ENV, "ro")
    assert i18n.language() == "ro" and i18n.gettext("Check") == "Verifică"
    with i18n.using("hi"):
        assert i18n.gettext("Check") == "जाँचें"
    monkeypatch.setenv(i18n.LANG_ENV, "klingon")  # a kernel must start: English
    assert i18n.language() == "en"


def test_plural_forms_follow_each_language():
    one = "Your earlier answer on this page now counts too."
    many = "Your {n} earlier answers on this page now count too."
    with i18n.using("ro"):  # Romanian: 1, 2-19, 20+ ("de")
        forms = [i18n.ngettext(one, many, n).format(n=n) for n in (1, 2, 20)]
    assert forms[0].startswith("Răspunsul") and "Cele 2 răspunsuri" in forms[1] and "Cele 20 de răspunsuri" in forms[2]
    with i18n.using("en"):
        assert i18n.ngettext(one, many, 3).format(n=3) == "Your 3 earlier answers on this page now count too."


def test_numbers_are_written_as_the_language_writes_them():
    from rummylab import display

    with i18n.using("ro"):
        assert display.number(1234) == "1.234" and display.number(34.5) == "34,5"
        assert i18n.local_digits("36.6%") == "36,6%"
    with i18n.using("hi"):
        assert display.number(1234) == "1,234" and display.number(34.5) == "34.5"
    with i18n.using("ro"):
        assert i18n.local_digits("KD 7H") == "KD 7H"  # not a number: as it is


@pytest.mark.parametrize("lang", ["en", *SHIPPED])
def test_every_card_is_named_and_read_back(lang):
    with i18n.using(lang):
        for card in [*DECK, JOKER]:
            assert parse_local(card_name(card)) == [card], card_name(card)
            assert parse_local(short_name(card)) == [card], short_name(card)
            assert parse_local(str(card)) == [card]  # "KD" everywhere


def test_cards_as_students_type_them():
    assert parse_local("बादशाह पान, पान का बादशाह ७ चिड़ी १० ईंट KD जोकर", "hi") == [
        Card.parse(c) for c in ("KH", "KH", "7C", "TD", "KD", "JK")]
    assert parse_local("popă de inimă roșie  R♥ rigă cupă as de pica 10 caro V♣ D♦ inima rosie de dama", "ro") == [
        Card.parse(c) for c in ("KH", "KH", "KH", "AS", "TD", "JC", "QD", "QH")]
    assert parse_local("AS 7H", "ro") == [Card.parse("AS"), Card.parse("7H")]  # the notation stays the notation
    with i18n.using("hi"):
        assert card_name("KH") == "पान का बादशाह" and card_name("TD") == "ईंट का दहला"
    with i18n.using("ro"):
        assert card_name("KH") == "popă de inimă roșie" and short_name("QD") == "D♦" and short_name("JS") == "V♠"


@pytest.mark.parametrize("text, lang, bad", [("बादशाह घोड़ा", "hi", "बादशाह"), ("popă de cal", "ro", "popă"),
                                             ("KD XX", "ro", "XX")])
def test_a_word_that_is_no_card_is_named(text, lang, bad):
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        parse_local(text, lang)


def test_the_library_template_is_current():
    """Every marked string is in rummylab.pot (python -m rummylab.i18n.build writes it)."""
    assert build._keys(build.read(build.TEMPLATE)) == build._keys(build.extract())


def test_the_lessons_template_is_current():
    """Every lesson string is in lessons.pot (rummylab lessons catalog writes it)."""
    assert build._keys(build.read(catalogs.LOCALE_DIR / "lessons.pot")) == build._keys(
        translate.catalog_template(NOTEBOOKS))


@pytest.mark.parametrize("lang", SHIPPED)
@pytest.mark.parametrize("domain", catalogs.DOMAINS)
def test_each_language_is_complete(lang, domain):
    template = build.read(catalogs.LOCALE_DIR / f"{domain}.pot")
    assert build.missing(lang, domain, template) == []


@pytest.mark.parametrize("lang", SHIPPED)
@pytest.mark.parametrize("domain", catalogs.DOMAINS)
def test_translations_keep_placeholders_code_and_markup(lang, domain):
    """{fields}, `code and cards` and a heading's number survive translation."""
    catalog = build.read(catalogs.LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po")
    for m in catalog:
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if not all(strings):
            continue  # untranslated: test_each_language_is_complete says so
        for pattern in (r"\{\w*\}", r"`[^`]*`", r"^#+ [\d.]*"):
            want = set(re.findall(pattern, ids[-1]))
            for s in strings[:-1]:  # a singular form may say "one" where the plural says {n}
                assert set(re.findall(pattern, s)) <= want, (m.context, m.id, s)
            assert set(re.findall(pattern, strings[-1])) == want, (m.context, m.id, strings[-1])


def test_the_build_compiles_every_catalog(tmp_path):
    shutil.copytree(catalogs.LOCALE_DIR, tmp_path / "locale")
    from rummylab.i18n.compile import compile_catalogs

    written = compile_catalogs(tmp_path / "locale")
    assert {p.parent.parent.name for p in written} >= set(SHIPPED) and all(p.stat().st_size for p in written)
    from babel.support import Translations

    with (tmp_path / "locale" / "ro" / "LC_MESSAGES" / "rummylab.mo").open("rb") as f:
        assert Translations(f).gettext("Check") == "Verifică"


def test_the_pseudo_language_marks_every_string_and_keeps_placeholders():
    with i18n.using(i18n.PSEUDO):
        text = i18n.gettext("Hint: {hint}")
        assert text.startswith("⟦") and text.endswith("⟧") and "{hint}" in text and "Hint" not in text


def test_a_check_speaks_the_students_language_and_reads_her_cards():
    from rummylab.lessons import check, exercise

    with i18n.using("hi"):
        exercise("i18n_cards", "Name the king of hearts.", answer="KH", lesson="i18n-test")
        right, wrong = check("i18n_cards", "पान का बादशाह"), check("i18n_cards", "KD")
        assert right.right and str(right).startswith("✔ सही।")
        assert not wrong.right and "सही उत्तर नहीं है" in str(wrong)
    with i18n.using("ro"):
        exercise("i18n_number", "How much?", answer=0.25, lesson="i18n-test")
        assert check("i18n_number", "0,25").right


def test_a_teachers_own_exercise_in_several_languages():
    from rummylab.lessons import check, exercise

    words = {"en": "May she knock?", "ro": "Poate să bată?"}
    with i18n.using("ro"):
        ex = exercise("i18n_own", words, answer="yes", hint={"en": "Count.", "ro": "Numără."}, lesson="i18n-test")
        assert ex.prompt == "Poate să bată?" and ex.hint == "Numără." and check("i18n_own", "da").right
    with i18n.using("hi"):  # no Hindi given: English
        assert exercise("i18n_own", words, answer="yes", lesson="i18n-test").prompt == "May she knock?"


def test_a_lesson_is_built_from_its_catalog_with_its_code_unchanged(tmp_path):
    source = NOTEBOOKS / "08-pure-sequence.ipynb"
    built = translate.translate_folder(NOTEBOOKS, "hi", tmp_path)
    nb, english = (json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / source.name, source))
    assert [p.name for p in built] == sorted(p.name for p in NOTEBOOKS.glob("[0-9]*.ipynb"))
    meta = nb["metadata"]["rummylab"]
    assert (meta["lang"], meta["untranslated"]) == ("hi", len(translate.untranslated(source, "hi")))
    assert meta["page"]["Opening the lesson…"] == "पाठ खुल रहा है…"  # the page's own banners, for its template
    first, *cells = nb["cells"]
    assert first["metadata"]["tags"] == [translate.LANGUAGE_TAG] and "set_language('hi')" in "".join(first["source"])
    for cell, original in zip(cells, english["cells"], strict=True):
        if cell["cell_type"] == "code":
            assert cell["source"] == original["source"]
    title = "".join(cells[0]["source"]).split("\n")[0]
    assert title.startswith("# 8.") and re.search("[\u0900-\u097f]", title)  # Devanagari


def test_lesson_strings_are_found_in_text_cells_and_exercise_calls():
    code = ('exercise("x", "Which card?", answer="KD", hint="Look up.", mistakes={"QD": "Too low."},\n'
            '         explain=lambda v: "Because.")\nprint(lessons.say("Cut {card}.", card=c))\n'
            'respond("y", w, button="Send it")')
    assert sorted(t for t, _ in translate.code_messages(code)) == [
        "Because.", "Cut {card}.", "Look up.", "Send it", "Too low.", "Which card?"]
    assert translate.paragraphs("# T\n\nOne\ntwo\n\n```\na\n\nb\n```") == ["# T", "One\ntwo", "```\na\n\nb\n```"]


def test_tables_write_numbers_as_the_language_does():
    import polars as pl

    from rummylab import display

    df = pl.DataFrame({"hands": [15820024220], "share": [0.3381], "held": [True]})
    with i18n.using("ro"):
        row = display.table(df, formats={"share": "{:.1%}"}).rows()[0]
    assert row == ["15.820.024.220", "33,8%", "da"]
    with i18n.using("en"):
        assert display.table(df, formats={"share": "{:.1%}"}).rows()[0] == ["15,820,024,220", "33.8%", "yes"]


def test_a_translation_with_other_fields_shows_in_english(tmp_path, monkeypatch, capfd):
    """A teacher's catalog (RUMMYLAB_LOCALES) that writes {carte} for {card}: that translation is
    left out (the shipped one, else the English, is shown: nothing raises), and the teacher's
    terminal says which."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    folder = tmp_path / "ro" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    own = Catalog(locale="ro", domain="rummylab")
    own.add("{card} is not in the hand", "{carte} nu este în mână")
    own.add("Check", "Verifică-l")
    with (folder / "rummylab.po").open("wb") as f:
        write_po(f, own)
    monkeypatch.setenv(catalogs.LOCALES_ENV, str(tmp_path))
    catalogs.reload()
    try:
        with i18n.using("ro"):
            assert i18n.gettext("{card} is not in the hand").format(card="KD") == "KD nu este în mână"
            assert i18n.gettext("Check") == "Verifică-l"  # hers wins where it is sound
        assert "'carte'" in capfd.readouterr().err
    finally:
        monkeypatch.delenv(catalogs.LOCALES_ENV)
        catalogs.reload()


def test_a_lessons_words_are_accepted_in_every_language(monkeypatch):
    """``lessons.words``: the answers a student may type, in English and every language, whatever the
    kernel's language (the class's server grades with the same set)."""
    from rummylab.lessons import words

    monkeypatch.setenv("RUMMYLAB_LESSON", "12-review-your-game")
    with i18n.using("hi"):
        said = words("blunder")
    assert {"blunder", "gafă", "बड़ी भूल"} <= said and said == words("blunder")


def test_skills_are_shown_in_her_language_and_kept_in_english():
    """A skill's name is the store's key (English); the class's first page shows it translated."""
    from rummylab.classroom.lesson_index import _skills_html
    from rummylab.progress.mastery import SkillState

    state = SkillState(skill="knock or not", streak=1, best=1, right=1, tried=1)
    with i18n.using("ro"):
        page = _skills_html({"knock or not": state})
    assert "a bate sau nu" in page and "knock or not" not in page
