"""Share cards: an evening's 结算, a hand, a player's season and a tournament's standings, each
as an SVG and a PNG image."""

from django.urls import path, re_path

from pages.cards import views

EVENING = r"^clubs/(?P<slug>[-a-zA-Z0-9_]+)/evenings/(?P<day>\d{4}-\d{2}-\d{2})/card"
HAND = "sessions/<int:pk>/hands/<int:number>/card"

urlpatterns = [
    re_path(rf"{EVENING}\.svg$", views.evening_card_view, {"fmt": "svg"},
            name="page-club-evening-card"),
    re_path(rf"{EVENING}\.png$", views.evening_card_view, {"fmt": "png"},
            name="page-club-evening-card-png"),
    path("players/<int:pk>/card.svg", views.player_card_view, {"fmt": "svg"},
         name="page-player-card"),
    path("players/<int:pk>/card.png", views.player_card_view, {"fmt": "png"},
         name="page-player-card-png"),
    path(f"{HAND}.svg", views.hand_card_view, {"fmt": "svg"}, name="page-hand-card"),
    path(f"{HAND}.png", views.hand_card_view, {"fmt": "png"}, name="page-hand-card-png"),
    path("tournaments/<slug:slug>/card.svg", views.tournament_card_view, {"fmt": "svg"},
         name="page-tournament-card"),
    path("tournaments/<slug:slug>/card.png", views.tournament_card_view, {"fmt": "png"},
         name="page-tournament-card-png"),
]  # fmt: skip
