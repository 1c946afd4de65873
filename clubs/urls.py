"""Routes of the clubs app, mounted under /api/v1/ by config.urls.

Give every route a name: named routes without URL arguments are listed in the /api/v1/ index.
"""

from django.urls import path

from clubs import api

urlpatterns = [
    path("clubs/", api.ClubListView.as_view(), name="clubs"),
    path("clubs/<slug:slug>/", api.ClubDetailView.as_view(), name="club-detail"),
    path("clubs/<slug:slug>/members/", api.MemberListView.as_view(), name="club-members"),
    path(
        "clubs/<slug:slug>/members/<int:pk>/",
        api.MemberDetailView.as_view(),
        name="club-member-detail",
    ),
    path("clubs/<slug:slug>/players/", api.ClubPlayerListView.as_view(), name="club-players"),
    path("clubs/<slug:slug>/sessions/", api.SessionListView.as_view(), name="club-sessions"),
    path("sessions/<int:pk>/", api.SessionDetailView.as_view(), name="session-detail"),
    path("sessions/<int:pk>/close/", api.SessionCloseView.as_view(), name="session-close"),
    path("sessions/<int:pk>/reopen/", api.SessionReopenView.as_view(), name="session-reopen"),
    path("sessions/<int:pk>/result/", api.SessionResultView.as_view(), name="session-result"),
    path("players/<int:pk>/", api.PlayerDetailView.as_view(), name="player-detail"),
]
