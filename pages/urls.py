"""Routes of the pages, mounted at the site root by config.urls. Each area owns its own urls."""

from django.urls import include, path
from django.views.i18n import set_language

urlpatterns = [
    path("i18n/setlang/", set_language, name="set-language"),
    path("", include("pages.accounts.urls")),
    path("", include("pages.clubs.urls")),
    path("", include("pages.tables.urls")),
    path("", include("pages.players.urls")),
    path("", include("pages.tiles.urls")),
    path("", include("pages.rules.urls")),
    path("", include("pages.tournaments.urls")),
    path("", include("pages.cards.urls")),
    path("", include("pages.app.urls")),
    path("", include("pages.live.urls")),
]
