from django.urls import path

from pages.clubs import views

urlpatterns = [
    path("", views.home, name="home"),
]
