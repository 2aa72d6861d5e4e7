"""A class: the lessons served with Voilà to a classroom, on a laptop or on JupyterHub.

- ``serve``: ``rummylab serve``, the Voilà command and the class's processes (it needs no Voilà to
  import: Voilà is imported only where it is used);
- ``class_code``: the class code (the identity provider Voilà loads by name), warm kernels for the
  lessons of the day, the teacher page's app;
- ``teacher``: the teacher page's HTML (``rummylab serve``'s and the hub service's);
- ``hub``: ``rummylab hub``, the JupyterHub config; ``hub_login``: ``rummylab serve`` behind the
  hub's login; ``hub_server``: what a student's server on the hub adds; ``hub_service``: the
  rummylab hub service, which alone holds the progress database.

``python -m rummylab.classroom`` is Voilà's command line with the class's warm kernels
(``__main__``, what ``serve.voila_command`` runs). This module imports nothing.
"""
