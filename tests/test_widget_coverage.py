"""The light lesson page against ipywidgets' own registry of core models (filled by its
``@register`` decorator): a release with a new model, or a new layout or style key, fails here
until the page draws or applies it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rummylab.classroom.class_code import OWN_PAGE
from rummylab.lessons.preflight import page_models
from rummylab.page_template import APP, DATA

pytestmark = pytest.mark.once  # the page against ipywidgets' registry, no kernel: the compiled run has it


BASE = "@jupyter-widgets/base"  # the view module of layouts and styles: applied with their widget


def registered() -> list[tuple[str, str, str, str | None, Any]]:
    """(model module, model name, view module, view name, class) of every registered model."""
    from ipywidgets.widgets.widget import _registry

    rows = [(mm, name, vm, view, klass) for (mm, _, name, vm, _, view), klass in _registry.items()]
    assert len(rows) > 60, "ipywidgets registers its models when imported"
    return rows


def js_keys(name: str) -> set[str]:
    """The widget state keys of ``const NAME = …`` in lessons.js (its keys and quoted names)."""
    text = (APP / "static" / "lessons.js").read_text(encoding="utf-8")
    found = re.search(rf"^const {name} = (.*?);$", text, re.M | re.S)
    assert found, name
    return set(re.findall(r'"(\w+)"', found.group(1))) | set(re.findall(r"(\w+):", found.group(1)))


def test_every_core_model_with_a_view_is_drawn() -> None:
    drawn = page_models()
    missing = sorted({name for _, name, vm, view, _ in registered() if vm != BASE and view and name not in drawn})
    assert not missing, f"the lesson page cannot draw {missing}: add them to RENDER (lessons.js, controls.js)"


def test_models_without_a_view_are_kept_in_the_page() -> None:
    """jslink and jsdlink make models with no view; the page keeps them (kernel.js LINKS). The
    one other, _Media's DOMWidgetModel, is an abstract base that is never made."""
    kept = set(re.findall(r"^\s*(\w+Model)\(manager, model\)", (APP / "static" / "kernel.js").read_text(), re.M))
    viewless = {(name, klass.__name__) for _, name, vm, view, klass in registered() if view is None}
    assert {name for name, cls in viewless if not cls.startswith("_")} <= kept
    assert {cls for _, cls in viewless if cls.startswith("_")} <= {"_Media"}


def test_every_layout_and_style_key_is_applied() -> None:
    applied = js_keys("LAYOUT") | js_keys("STYLE")
    missing = {}
    for _, name, vm, _, klass in registered():
        if vm == BASE:
            keys = {k for k in klass.class_trait_names(sync=True) if not k.startswith("_")}
            if keys - applied:
                missing[name] = sorted(keys - applied)
    assert not missing, f"keys the page does not apply (LAYOUT and STYLE in lessons.js): {missing}"


def test_core_models_are_the_ones_the_page_treats_as_its_own() -> None:
    """page.js sends a lesson to Voilà's own page for any model module but these."""
    modules = {mm for mm, *_ in registered()}
    assert all(m.startswith("@jupyter-widgets/") for m in modules), modules
    assert 'startsWith("@jupyter-widgets/")' in (APP / "static" / "page.js").read_text()


def test_anywidgets_are_drawn() -> None:
    import anywidget

    assert anywidget.AnyWidget._model_module.default_value == "anywidget"
    assert anywidget.AnyWidget._model_name.default_value in page_models()


def test_voilas_own_page_is_shipped_offline() -> None:
    """The template a lesson with third-party widget front ends gets is the one page.js names, and
    links nothing outside (tests/test_page_template.py)."""
    own = DATA / "voila" / "templates" / OWN_PAGE
    assert not [line for line in (own / "index.html.j2").read_text().splitlines() if "<link" in line and "://" in line]
    assert f'"{OWN_PAGE}"' in (APP / "static" / "page.js").read_text()
