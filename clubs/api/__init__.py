"""The clubs API: clubs, members and players (``clubs``), table sessions and final results
(``sessions``), hands (``hands``), logins (``auth``). Thin views: reads from
``clubs.selectors``, writes through ``clubs.services``, access from ``clubs.permissions``."""
