"""``python -m rummylab.classroom``: Voilà's command line with the class's warm kernels
(``serve.voila_command`` runs it)."""

import sys

try:
    from .voila_patches import run_voila
except ValueError as exc:  # a Voilà the tests did not run (voila_patches.VoilaNotTested): one line
    sys.exit(f"rummylab: error: {exc}")

run_voila()
