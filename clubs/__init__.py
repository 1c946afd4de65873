"""Clubs: players, memberships and logins, and the table-session aggregate (sessions, seats,
叫马 bettors, hands with their revisions and payments, final results)."""
