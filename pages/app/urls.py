"""The web app manifest and its icons."""

from django.urls import path

from pages.app import views

urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="app-manifest"),
    path("icons/icon-<int:size>.png", views.icon, name="app-icon"),
    path("sw.js", views.service_worker, name="app-service-worker"),
]
