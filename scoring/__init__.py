"""Scoring: the rules. The pure-Python engine (``scoring/engine/``), rulesets and the snapshots
sessions pin, the stateless engine endpoints and the ``mahjong`` command. Knows no clubs."""
