"""Writes of the clubs app, one transaction each: ``clubs`` (clubs, players, members),
``sessions`` (table sessions, final results), ``hands`` (record, correct, delete, resolve)
and ``confirmations`` (players confirm or dispute a hand; the rule that holds it)."""
