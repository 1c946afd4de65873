"""Routes of the pages, mounted at the site root by config.urls. Each area owns its own urls."""

from django.urls import include, path
from django.views.i18n import set_language

#: the pages read the most first (the table at every hand, a tournament's on players' phones):
#: every route ends where it ends, so the order decides only how soon one is found
urlpatterns = [
    path("", include("pages.tables.urls")),
    path("", include("pages.tournaments.urls")),
    path("i18n/setlang/", set_language, name="set-language"),
    path("", include("pages.accounts.urls")),
    path("", include("pages.clubs.urls")),
    path("", include("pages.players.urls")),
    path("", include("pages.tiles.urls")),
    path("", include("pages.rules.urls")),
    path("", include("pages.cards.urls")),
    path("", include("pages.app.urls")),
    path("", include("pages.live.urls")),
]
