from django.urls import path

from pages import stubs
from pages.clubs import views

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/<slug:slug>/", stubs.not_yet, name="page-club"),
]
