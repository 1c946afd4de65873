from django.urls import path

from pages.live import views

urlpatterns = [path("live/events/", views.events, name="live-events")]
