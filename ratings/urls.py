"""Routes of the ratings app, mounted under /api/v1/ by config.urls."""

from django.urls import path

from ratings.api import awards, ranking, stats

urlpatterns = [
    path("clubs/<slug:slug>/ranking/", ranking.ClubRankingView.as_view(), name="club-ranking"),
    path("clubs/<slug:slug>/awards/", awards.ClubAwardsView.as_view(), name="club-awards"),
    path("players/<int:pk>/stats/", stats.PlayerStatsView.as_view(), name="player-stats"),
]
