"""Signals of the scoring app, for apps built on table sessions (tournaments) to follow."""

from django.dispatch import Signal

#: sent by the ``scoring.session_changed`` task after a session's hands or results changed
#: (``session_id`` keyword)
session_changed = Signal()
