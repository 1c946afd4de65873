"""The tournament pages: its home, the standings, the projector, a round's tables (a page at
a time, and where a player sits) and its printed seating, and the live tables of the round in
play; for its scorekeeper, a new tournament, the
entries and the round desk."""

from django.urls import include, path

from pages.tournaments import director, importing, private, views

#: a tournament's own pages, under its address (the players' pages first: read the most)
tournament_patterns = [
    path("", views.tournament_page, name="page-tournament"),
    path("standings/", views.standings, name="page-tournament-standings"),
    path("rounds/<int:number>/", views.round_page, name="page-tournament-round"),
    path("live/", views.live, name="page-tournament-live"),
    path("projector/", views.projector, name="page-tournament-projector"),
    path("rounds/<int:number>/print/", views.seating_print, name="page-tournament-print"),
    path("report/", views.report, name="page-tournament-report"),
    path("standings/reveal/", views.reveal, name="page-tournament-reveal"),
    path("entries/", director.entries, name="page-tournament-entries"),
    path("entries/import/", importing.entries_import_page, name="page-tournament-entries-import"),
    path("slips/", private.slips, name="page-tournament-slips"),
    path("rounds/<int:number>/cards/", private.table_cards, name="page-tournament-cards"),
    path("entries/<int:player>/", director.entry_change, name="page-tournament-entry"),
    path("check-in/", director.check_in, name="page-tournament-check-in"),
    path("desk/", director.desk, name="page-tournament-desk"),
    path("penalties/", director.penalties, name="page-tournament-penalties"),
    path(
        "penalties/<int:pk>/revoke/", director.penalty_revoke, name="page-tournament-penalty-revoke"
    ),
    path("desk/seat/", director.round_seat, name="page-tournament-seat"),
    path("desk/reseat/", director.round_reseat, name="page-tournament-reseat"),
    path(
        "rounds/<int:number>/tables/<int:table>/substitute/",
        director.table_substitute,
        name="page-tournament-substitute",
    ),
    path(
        "substitutes/<int:pk>/undo/",
        director.substitute_undo,
        name="page-tournament-substitute-undo",
    ),
    path("desk/clock/", director.clock_change, name="page-tournament-clock"),
    path("desk/approve/", director.table_approve, name="page-tournament-approve"),
    path("desk/dispute/", director.table_dispute, name="page-tournament-dispute"),
    path(
        "desk/rounds/<int:number>/lock/",
        director.round_lock_change,
        name="page-tournament-round-lock",
    ),
]

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/new/", director.tournament_new, name="page-tournament-new"),
    path("me/<str:key>/", private.my_page, name="page-me"),
    path("t/<str:key>/", private.table_card, name="page-table-card"),
    path("tournaments/<slug:slug>/", include(tournament_patterns)),
]
