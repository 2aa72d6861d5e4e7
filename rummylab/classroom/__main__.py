"""``python -m rummylab.classroom``: Voilà's command line with the class's warm kernels
(``serve.voila_command`` runs it)."""

from .class_code import run_voila

run_voila()
