"""Who has done which exercise, and what they typed: each ``lessons.check`` of a named student is a
row in a database, read back as polars tables.

The database is ``RUMMYLAB_DB`` (``rummylab serve --db`` sets it; by default ``progress.sqlite``
in the served folder): a path or ``sqlite:///…`` (SQLite in write-ahead-log mode: one machine, a
class writing at once), or ``postgresql://user:password@host:port/db`` (``rummylab[hub]``: many
machines, e.g. JupyterHub). Without it, nothing is recorded.

rummylab makes the schema and brings an older one up to date on first connect, once however many
kernels connect at once (``engines``). A check waits a moment at most: while the database cannot be
reached its row waits in a queue retried in the background, then in a local spool uploaded by the
next write or report (``queue``).
"""

from __future__ import annotations

from .engines import SCHEMA_VERSION, Target, parse
from .gradebook import Gradebook, gradebook_csv, gradebook_html, gradebook_of
from .page import report_html
from .queue import SPOOL_ENV, spool_root
from .report import (
    answer_table,
    answers_text,
    exercise_table,
    find_lesson,
    report_table,
    response_table,
    students_text,
)
from .store import (
    ANSWER_MAX,
    DB_ENV,
    HUB_USER_ENV,
    LABEL_MAX,
    NAME_MAX,
    WAIT,
    Progress,
    check_name,
    check_row,
    default_db,
)

__all__ = [
    "ANSWER_MAX", "DB_ENV", "HUB_USER_ENV", "LABEL_MAX", "NAME_MAX", "SCHEMA_VERSION", "SPOOL_ENV", "WAIT",
    "Gradebook", "Progress", "Target", "answer_table", "answers_text", "check_name", "check_row", "default_db",
    "exercise_table", "find_lesson", "gradebook_csv", "gradebook_html", "gradebook_of", "parse", "report_html",
    "report_table", "response_table", "spool_root", "students_text",
]
