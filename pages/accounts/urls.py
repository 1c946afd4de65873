from django.urls import path

from pages.accounts import invitations, members, views

M = "clubs/<slug:slug>/members/<int:pk>"

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("password/", views.PasswordChangeView.as_view(), name="password-change"),
    path("account/token/", views.api_token, name="api-token"),
    path("clubs/<slug:slug>/members/", members.members, name="page-club-members"),
    path(f"{M}/role/", members.member_role, name="page-member-role"),
    path(f"{M}/remove/", members.member_remove, name="page-member-remove"),
    path(f"{M}/reset/", members.member_reset, name="page-member-reset"),
    path(
        "clubs/<slug:slug>/invitations/",
        members.invitation_create,
        name="page-invitation-create",
    ),
    path(
        "clubs/<slug:slug>/invitations/<int:pk>/revoke/",
        members.invitation_revoke,
        name="page-invitation-revoke",
    ),
    path("invite/<str:token>/", invitations.invitation, name="page-invitation"),
]
