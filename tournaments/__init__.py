"""Tournaments: rounds, seatings, standings."""
