"""The club ranking (排行榜) and a player's page (战绩)."""

from django.urls import path

from pages.players import views

urlpatterns = [
    path("clubs/<slug:slug>/ranking/", views.ranking, name="page-club-ranking"),
    path("players/<int:pk>/", views.player, name="page-player"),
]
