"""The table page: the 流水 sheet, recording, correcting and deleting hands, final results."""

from django.urls import path

from pages.tables import confirm, queue, seats, views

H = "sessions/<int:pk>/hands/<int:number>"

urlpatterns = [
    path("sessions/<int:pk>/", views.session_page, name="page-session"),
    path("sessions/<int:pk>/close/", views.session_close, name="page-session-close"),
    path("sessions/<int:pk>/hands/send/", queue.hand_send, name="page-hand-send"),
    path("sessions/<int:pk>/reopen/", views.session_reopen, name="page-session-reopen"),
    path("sessions/<int:pk>/result/", views.session_result, name="page-session-result"),
    path("sessions/<int:pk>/seats/", seats.seats_page, name="page-session-seats"),
    path("sessions/<int:pk>/players-link/", views.players_link_make, name="page-session-link"),
    path("g/<str:key>/", views.players_link, name="page-players-link"),
    path(f"{H}/", views.hand_page, name="page-hand"),
    path(f"{H}/edit/", views.hand_edit, name="page-hand-edit"),
    path(f"{H}/delete/", views.hand_delete, name="page-hand-delete"),
    path(f"{H}/confirm/", confirm.hand_confirm, name="page-hand-confirm"),
    path(f"{H}/resolve/", confirm.hand_resolve, name="page-hand-resolve"),
    path(
        "clubs/<slug:slug>/confirmations/",
        confirm.club_confirmations,
        name="page-club-confirmations",
    ),
]
