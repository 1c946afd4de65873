"""The tournament pages: its home, the standings, the projector, the printed seating of a
round and the live tables of the round in play."""

from django.urls import path

from pages.tournaments import views

T = "tournaments/<slug:slug>"

urlpatterns = [
    path(f"{T}/", views.tournament_page, name="page-tournament"),
    path(f"{T}/standings/", views.standings, name="page-tournament-standings"),
    path(f"{T}/projector/", views.projector, name="page-tournament-projector"),
    path(f"{T}/live/", views.live, name="page-tournament-live"),
    path(f"{T}/rounds/<int:number>/print/", views.seating_print, name="page-tournament-print"),
]
