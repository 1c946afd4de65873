from django.urls import path

from pages import stubs

urlpatterns = [
    path("sessions/<int:pk>/", stubs.not_yet, name="page-session"),
]
