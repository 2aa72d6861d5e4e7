"""A class served by ``rummylab serve``: the class-code page, the index, a named student
answering an exercise in app mode, and the teacher page showing it."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from typing import Any

from rummylab.classroom.class_code import kernel_processes

from .conftest import CLASS_CODE, TEACHER_TOKEN, answer, not_a_card, shot

TIMEOUT = 120_000


def kernels(proc: Any) -> int:
    """Kernel processes under the class server."""
    return len(kernel_processes(proc.pid))


def wait_for_kernels(proc: Any, n: int, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while kernels(proc) != n:
        assert time.monotonic() < end, f"{kernels(proc)} kernels, not {n}"
        time.sleep(0.5)


def test_a_class_with_a_code_and_a_teacher_page(page: Any, classroom: dict[str, Any]) -> None:
    url, proc = classroom["url"], classroom["proc"]
    warm = kernels(proc)
    assert warm >= 1  # lesson 00 is kept ready
    # without the code: a page that asks for it, and no kernel for the visitor
    page.goto(f"{url}/voila/render/00-start-here.ipynb", timeout=TIMEOUT)
    page.wait_for_selector("#class-code", timeout=TIMEOUT)
    assert "class code" in page.inner_text("body")
    page.fill("#class-code", "WRONG1")
    page.click("#join")
    page.wait_for_selector("#wrong-code", timeout=TIMEOUT)
    assert kernels(proc) == warm
    # the code as read out (any case) opens the lesson asked for
    page.fill("#class-code", CLASS_CODE.lower())
    page.click("#join")
    page.wait_for_selector(".rl-name input", timeout=TIMEOUT)
    page.fill(".rl-name input", "Ada")
    page.click(".rl-name-ok")
    page.wait_for_function("() => document.querySelector('.rl-name-note').innerText.includes('Hello, Ada')",
                           timeout=30_000)
    odd, card = not_a_card(page)
    answer(page, "not_a_card", card, "Not quite")
    answer(page, "not_a_card", odd, "Right")
    # the one warm kernel is taken: a second student gets a kernel of their own at once (the lesson
    # runs for them), never a wait for the warm kernel's replacement
    other = page.context.browser.new_context()
    try:
        second = other.new_page()
        second.goto(f"{url}/voila/render/00-start-here.ipynb", timeout=TIMEOUT)
        second.fill("#class-code", CLASS_CODE)
        second.click("#join")
        second.wait_for_selector(".rl-live .rl-analyzer .rl-deadwood", timeout=TIMEOUT)  # not 300 s
    finally:
        other.close()
    # the second student left: their kernel is shut down (RUMMYLAB_LEFT_AFTER is 2 s here)
    wait_for_kernels(proc, 1)
    # the index lists the lessons by title; with her name, what she solved
    page.goto(url + "/", timeout=TIMEOUT)
    page.wait_for_selector("a[href*='02-melds-and-deadwood']", timeout=TIMEOUT)
    assert "2. Melds and deadwood" in page.inner_text(".rl-lessons")
    page.fill("#rl-name", "Ada")
    page.click(".rl-who button")
    page.wait_for_selector(".rl-progress.rl-some", timeout=TIMEOUT)
    assert "1 of 3 solved" in page.inner_text("a[href*='00-start-here']")
    # the teacher page: refused without its token, live with it
    try:
        urllib.request.urlopen(classroom["teacher"] + "/", timeout=10)
        raise AssertionError("the teacher page opened without its token")
    except urllib.error.HTTPError as exc:
        assert exc.code == 403
    page.goto(f"{classroom['teacher']}/?token={TEACHER_TOKEN}", timeout=TIMEOUT)
    page.wait_for_selector(".rl-teacher-page table", timeout=TIMEOUT)
    text = page.inner_text("body")
    assert "Ada" in text and "not_a_card" in text and "00-start-here" in text
    # per exercise, what the class answered: the wrong answer first, then the right one
    answers = page.inner_text(".rl-answers")
    assert "1 student tried, 1 solved (2 checks)" in answers
    assert answers.index(card.lower()) < answers.index(odd.lower())
    page.click(".rl-lessons a[href='?lesson=00-start-here']")  # one lesson (the cookie stands for the token)
    page.wait_for_selector(".rl-lessons a[aria-current=page][href='?lesson=00-start-here']", timeout=TIMEOUT)
    assert "Ada" in page.inner_text(".rl-students")
    wait_for_kernels(proc, 0)  # the first student left the lesson too
    page.set_viewport_size({"width": 760, "height": 420})
    shot(page, "teacher-page")
