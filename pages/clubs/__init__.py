"""Home, club, players, opening a table and the evening's 结算."""
