"""Sign-up, login, invitations and password links: the pages of accounts."""
