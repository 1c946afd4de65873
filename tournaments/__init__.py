"""Tournaments: registration, rounds, tables, seating (``seating/``) and standings
(``standings/``), with the thin Django adapters around them."""
