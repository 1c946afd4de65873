from django.urls import path

from pages.accounts import views

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("password/", views.PasswordChangeView.as_view(), name="password-change"),
]
