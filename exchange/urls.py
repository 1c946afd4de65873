"""Routes of the exchange app, mounted under /api/v1/ by config.urls."""

from django.urls import path

from exchange import api

urlpatterns = [
    path(
        "tournaments/<slug:slug>/players/import/",
        api.EntriesImportView.as_view(),
        name="tournament-players-import",
    ),
]
