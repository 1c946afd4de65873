"""Routes of the clubs app, mounted under /api/v1/ by config.urls.

Give every route a name: named routes without URL arguments are listed in the /api/v1/ index.
"""

from django.urls import path

from clubs.api import auth, clubs, confirmations, hands, invitations, sessions

H = "sessions/<int:pk>/hands/<int:number>"

urlpatterns = [
    path("auth/token/", auth.TokenView.as_view(), name="auth-token"),
    path("auth/me/", auth.MeView.as_view(), name="auth-me"),
    path("clubs/", clubs.ClubListView.as_view(), name="clubs"),
    path("clubs/<slug:slug>/", clubs.ClubDetailView.as_view(), name="club-detail"),
    path("clubs/<slug:slug>/members/", clubs.MemberListView.as_view(), name="club-members"),
    path(
        "clubs/<slug:slug>/members/<int:pk>/",
        clubs.MemberDetailView.as_view(),
        name="club-member-detail",
    ),
    path(
        "clubs/<slug:slug>/invitations/",
        invitations.InvitationListView.as_view(),
        name="club-invitations",
    ),
    path(
        "clubs/<slug:slug>/invitations/<int:pk>/",
        invitations.InvitationDetailView.as_view(),
        name="club-invitation-detail",
    ),
    path(
        "invitations/<str:token>/accept/",
        invitations.InvitationAcceptView.as_view(),
        name="invitation-accept",
    ),
    path("clubs/<slug:slug>/players/", clubs.ClubPlayerListView.as_view(), name="club-players"),
    path("clubs/<slug:slug>/sessions/", sessions.SessionListView.as_view(), name="club-sessions"),
    path("sessions/<int:pk>/", sessions.SessionDetailView.as_view(), name="session-detail"),
    path("sessions/<int:pk>/close/", sessions.SessionCloseView.as_view(), name="session-close"),
    path("sessions/<int:pk>/reopen/", sessions.SessionReopenView.as_view(), name="session-reopen"),
    path(
        "sessions/<int:pk>/seats/repair/",
        sessions.SeatRepairView.as_view(),
        name="session-seats-repair",
    ),
    path("sessions/<int:pk>/result/", sessions.SessionResultView.as_view(), name="session-result"),
    path("sessions/<int:pk>/hands/", hands.HandListView.as_view(), name="session-hands"),
    path(f"{H}/", hands.HandDetailView.as_view(), name="hand-detail"),
    path(f"{H}/history/", hands.HandHistoryView.as_view(), name="hand-history"),
    path(
        f"{H}/confirmations/",
        confirmations.HandConfirmationsView.as_view(),
        name="hand-confirmations",
    ),
    path(f"{H}/resolution/", confirmations.HandResolutionView.as_view(), name="hand-resolution"),
    path("players/<int:pk>/", clubs.PlayerDetailView.as_view(), name="player-detail"),
]
