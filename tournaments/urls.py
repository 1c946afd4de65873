"""Routes of the tournaments app, mounted under /api/v1/ by config.urls.

Give every route a name: named routes without URL arguments are listed in the /api/v1/ index.
"""

from django.urls import path

from tournaments import api

T = "tournaments/<slug:slug>"
R = f"{T}/rounds/<int:number>"

urlpatterns = [
    path("tournaments/", api.TournamentListView.as_view(), name="tournaments"),
    path(f"{T}/", api.TournamentDetailView.as_view(), name="tournament-detail"),
    path(f"{T}/players/", api.RegistrationListView.as_view(), name="tournament-players"),
    path(
        f"{T}/players/<int:player>/",
        api.RegistrationDetailView.as_view(),
        name="tournament-player-detail",
    ),
    path(f"{T}/rounds/", api.RoundListView.as_view(), name="tournament-rounds"),
    path(f"{T}/rounds/<int:number>/", api.RoundDetailView.as_view(), name="tournament-round"),
    path(
        f"{T}/rounds/<int:number>/reseat/",
        api.RoundReseatView.as_view(),
        name="tournament-round-reseat",
    ),
    path(f"{R}/unlock/", api.RoundUnlockView.as_view(), name="tournament-round-unlock"),
    path(f"{R}/clock/", api.RoundClockView.as_view(), name="tournament-round-clock"),
    path(
        f"{R}/clock/extend/",
        api.RoundClockExtendView.as_view(),
        name="tournament-round-clock-extend",
    ),
    path(f"{R}/lock/", api.RoundLockView.as_view(), name="tournament-round-lock"),
    path(
        f"{R}/tables/<int:table>/result/",
        api.TableResultView.as_view(),
        name="tournament-table-result",
    ),
    path(
        f"{R}/tables/<int:table>/approve/",
        api.TableApproveView.as_view(),
        name="tournament-table-approve",
    ),
    path(
        f"{R}/tables/<int:table>/substitutes/",
        api.TableSubstituteView.as_view(),
        name="tournament-table-substitutes",
    ),
    path(
        f"{R}/tables/<int:table>/dispute/",
        api.TableDisputeView.as_view(),
        name="tournament-table-dispute",
    ),
    path(
        f"{R}/tables/<int:table>/dispute/resolve/",
        api.TableDisputeResolveView.as_view(),
        name="tournament-table-dispute-resolve",
    ),
    path(f"{R}/cards/", api.TableCardsView.as_view(), name="tournament-round-cards"),
    path(f"{T}/substitutes/", api.SubstituteListView.as_view(), name="tournament-substitutes"),
    path(
        f"{T}/substitutes/<int:pk>/",
        api.SubstituteDetailView.as_view(),
        name="tournament-substitute-detail",
    ),
    path(f"{T}/standings/", api.StandingsView.as_view(), name="tournament-standings"),
    path(
        f"{T}/standings/reveal/",
        api.StandingsRevealView.as_view(),
        name="tournament-standings-reveal",
    ),
    path(f"{T}/penalties/", api.PenaltyListView.as_view(), name="tournament-penalties"),
    path(
        f"{T}/penalties/<int:pk>/revoke/",
        api.PenaltyRevokeView.as_view(),
        name="tournament-penalty-revoke",
    ),
    path("tables/<int:pk>/result/", api.TableResultByIdView.as_view(), name="table-result"),
]
