"""The rules pages: every preset of the engine, and one preset in full."""

from django.urls import path

from pages.rules import views

urlpatterns = [
    path("rules/", views.rules_index, name="page-rules"),
    path("rules/<slug:preset>/", views.rules_preset, name="page-rules-preset"),
]
