from django.urls import path

from pages import stubs
from pages.accounts import views

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("password/", views.PasswordChangeView.as_view(), name="password-change"),
    path("clubs/<slug:slug>/members/", stubs.not_yet, name="page-club-members"),
    path("invite/<str:token>/", stubs.not_yet, name="page-invitation"),
]
