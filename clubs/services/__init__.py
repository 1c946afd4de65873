"""Writes of the clubs app, one transaction each: ``clubs`` (clubs, players, members),
``sessions`` (table sessions, final results) and ``hands`` (record, correct, delete)."""
