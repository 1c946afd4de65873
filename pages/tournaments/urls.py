"""The tournament pages: its home, the standings, the projector, a round's tables (a page at
a time, and where a player sits) and its printed seating, and the live tables of the round in
play; for its scorekeeper, a new tournament, the
entries and the round desk."""

from django.urls import path

from pages.tournaments import director, importing, private, views

T = "tournaments/<slug:slug>"

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/new/", director.tournament_new, name="page-tournament-new"),
    path(f"{T}/entries/", director.entries, name="page-tournament-entries"),
    path(
        f"{T}/entries/import/",
        importing.entries_import_page,
        name="page-tournament-entries-import",
    ),
    path(f"{T}/slips/", private.slips, name="page-tournament-slips"),
    path("me/<str:key>/", private.my_page, name="page-me"),
    path("t/<str:key>/", private.table_card, name="page-table-card"),
    path(
        f"{T}/rounds/<int:number>/cards/",
        private.table_cards,
        name="page-tournament-cards",
    ),
    path(f"{T}/entries/<int:player>/", director.entry_change, name="page-tournament-entry"),
    path(f"{T}/check-in/", director.check_in, name="page-tournament-check-in"),
    path(f"{T}/desk/", director.desk, name="page-tournament-desk"),
    path(f"{T}/penalties/", director.penalties, name="page-tournament-penalties"),
    path(
        f"{T}/penalties/<int:pk>/revoke/",
        director.penalty_revoke,
        name="page-tournament-penalty-revoke",
    ),
    path(f"{T}/desk/seat/", director.round_seat, name="page-tournament-seat"),
    path(f"{T}/desk/reseat/", director.round_reseat, name="page-tournament-reseat"),
    path(
        f"{T}/rounds/<int:number>/tables/<int:table>/substitute/",
        director.table_substitute,
        name="page-tournament-substitute",
    ),
    path(
        f"{T}/substitutes/<int:pk>/undo/",
        director.substitute_undo,
        name="page-tournament-substitute-undo",
    ),
    path(f"{T}/desk/clock/", director.clock_change, name="page-tournament-clock"),
    path(f"{T}/desk/approve/", director.table_approve, name="page-tournament-approve"),
    path(f"{T}/desk/dispute/", director.table_dispute, name="page-tournament-dispute"),
    path(
        f"{T}/desk/rounds/<int:number>/lock/",
        director.round_lock_change,
        name="page-tournament-round-lock",
    ),
    path(f"{T}/", views.tournament_page, name="page-tournament"),
    path(f"{T}/standings/", views.standings, name="page-tournament-standings"),
    path(f"{T}/projector/", views.projector, name="page-tournament-projector"),
    path(f"{T}/live/", views.live, name="page-tournament-live"),
    path(f"{T}/report/", views.report, name="page-tournament-report"),
    path(f"{T}/standings/reveal/", views.reveal, name="page-tournament-reveal"),
    path(f"{T}/rounds/<int:number>/", views.round_page, name="page-tournament-round"),
    path(f"{T}/rounds/<int:number>/print/", views.seating_print, name="page-tournament-print"),
]
