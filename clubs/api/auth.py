"""Authentication endpoints: token for scripts, ``me`` for whoever is logged in."""

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import NotAuthenticated, Throttled, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from clubs.selectors import user_clubs
from clubs.serializers import MeClubSerializer, PlayerRefSerializer
from core.api import BaseView
from core.logins import LoginThrottle, throttled_for
from core.tokens import api_tokens_revoke


class MeSerializer(serializers.ModelSerializer):
    """The login, the players linked to it (one person, one player: at most one) and the clubs
    those players belong to, with their role in each."""

    # not an EmailField: a login made at sign-up has none (""), which is no e-mail address
    email = serializers.CharField(read_only=True, help_text='"" when none was given')
    players = PlayerRefSerializer(many=True, read_only=True, source="mine.players")
    clubs = MeClubSerializer(many=True, read_only=True, source="mine.memberships")

    class Meta:
        model = get_user_model()
        fields = ["id", "username", "email", "is_staff", "players", "clubs"]
        read_only_fields = fields


class TokenView(ObtainAuthToken):
    """POST username + password, get ``{"token": "..."}``.

    Send it as ``Authorization: Token <key>`` on later requests. Too many failed logins for a
    username from one address, or from one address, are refused for a while (429).
    """

    # DRF's token view parses and throttles in its own way; this one as the API does (bounded
    # JSON), plus the failed-login throttle.
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    throttle_classes = [*api_settings.DEFAULT_THROTTLE_CLASSES, LoginThrottle]

    def post(self, request: Request, *args, **kwargs) -> Response:
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            # refused before its password was tried (core.logins): a 429, not a wrong password
            if wait := throttled_for(request):
                raise Throttled(wait) from None
            raise

    @extend_schema(responses={204: None})
    def delete(self, request: Request) -> Response:
        """Revoke the caller's token (as the account page's button does): it stops working at
        once. A password change or reset revokes it too."""
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        api_tokens_revoke(request.user)
        return Response(status=204)


class MeView(BaseView):
    """The authenticated user."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MeSerializer)
    def get(self, request: Request) -> Response:
        user = request.user
        user.mine = user_clubs(user)
        return Response(MeSerializer(user).data)
