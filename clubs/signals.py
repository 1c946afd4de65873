"""Signals of the clubs app, for the apps built on table sessions (tournaments) to follow."""

from django.dispatch import Signal

#: sent by the ``clubs.session_changed`` task after a session's hands or results changed
#: (``session_id`` keyword)
session_changed = Signal()

#: sent by ``clubs.services.clubs.club_update`` in its transaction, after the club's row was
#: saved (``club_id``, and ``fields``: the names of the fields whose value changed)
club_changed = Signal()

#: sent by ``clubs.tasks.follow_session`` in the writing transaction, each time a session's
#: hands, results or state change (``session_id``, ``kind``: the session's kind, ``version``:
#: its new ``data_version``), for what the apps show live of it
session_written = Signal()
