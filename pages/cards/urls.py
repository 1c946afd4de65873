"""Share cards: an evening's 结算 and a player's season, as SVG images."""

from django.urls import path, re_path

from pages.cards import views

urlpatterns = [
    re_path(
        r"^clubs/(?P<slug>[-a-zA-Z0-9_]+)/evenings/(?P<day>\d{4}-\d{2}-\d{2})/card\.svg$",
        views.evening_card_svg,
        name="page-club-evening-card",
    ),
    path("players/<int:pk>/card.svg", views.player_card_svg, name="page-player-card"),
]
