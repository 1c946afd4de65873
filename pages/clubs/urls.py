"""Home, club, players, opening a table and the evening's 结算."""

from django.urls import path, re_path

from pages.clubs import importing, views

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/new/", views.club_new, name="page-club-new"),
    path("clubs/<slug:slug>/", views.club_page, name="page-club"),
    path("clubs/<slug:slug>/players/", views.players, name="page-club-players"),
    path("clubs/<slug:slug>/rules/change/", views.club_rules, name="page-club-rules"),
    path("clubs/<slug:slug>/tables/new/", views.table_new, name="page-table-new"),
    path("clubs/<slug:slug>/import/", importing.club_import, name="page-club-import"),
    re_path(
        r"^clubs/(?P<slug>[-a-zA-Z0-9_]+)/evenings/(?P<day>\d{4}-\d{2}-\d{2})/$",
        views.evening,
        name="page-club-evening",
    ),
]
