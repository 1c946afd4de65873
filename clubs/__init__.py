"""Mahjong clubs: members, tables, sessions."""
