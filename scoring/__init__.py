"""Scoring: API around the pure-Python rules engine in scoring/engine/."""
