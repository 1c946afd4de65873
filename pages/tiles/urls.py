from django.urls import path

from pages.tiles import views

urlpatterns = [
    path("tiles/", views.calculator, name="page-tiles"),
]
