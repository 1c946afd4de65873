"""A URLconf used only by tests (``@pytest.mark.urls("tests.core.urls_for_tests")``).

It mounts the real project routes plus views that raise every kind of error, in DRF
(``/api/test/raise/<kind>/``) and in a plain Django view (``/api/test/plain/<kind>/``).
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import InterfaceError, OperationalError, connection
from django.http import Http404, HttpResponse
from django.urls import include, path
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny, IsAdminUser
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from config.urls import handler400, handler403, handler404, handler500, urlpatterns  # noqa: F401
from core.api import BaseView
from core.errors import Conflict, Invalid, NotAuthenticated, NotFound


class WinnerSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3)
    concealed = serializers.ListField(child=serializers.CharField(max_length=2))


class EventSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["hu", "gang"])
    winners = WinnerSerializer(many=True)


class GameSerializer(serializers.Serializer):
    name = serializers.CharField()
    events = EventSerializer(many=True)
    options = serializers.DictField(child=serializers.IntegerField(), required=False)

    def validate(self, attrs):
        if attrs.get("name") == "clash":
            raise serializers.ValidationError("top-level problem")
        return attrs


class ValidateView(APIView):
    permission_classes = [AllowAny]

    def post(self, request):
        serializer = GameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response({"ok": True})


def database_trouble(kind: str) -> None:
    """What a view meets when the database fails: ``db-down`` and ``db-gone`` raise as a lost
    connection does, ``db-locked`` as SQLite busy with another writer; ``query`` asks the
    database something, ``slow-query`` (PostgreSQL) something that takes 2 s."""
    if kind == "db-down":
        raise OperationalError("server closed the connection unexpectedly")
    if kind == "db-gone":
        raise InterfaceError("connection already closed")
    if kind == "db-locked":
        raise OperationalError("database is locked")  # SQLite, another writer's lock
    queries = {"query": "SELECT 1", "slow-query": "SELECT pg_sleep(2)"}
    if kind in queries:
        with connection.cursor() as cursor:
            cursor.execute(queries[kind])


class RaiseView(APIView):
    permission_classes = [AllowAny]

    def get(self, request, kind):
        database_trouble(kind)
        if kind == "conflict":
            raise Conflict("conflict", "Game already finished.")
        if kind == "invalid":
            raise Invalid(
                [
                    {"path": "hand.tiles[3]", "code": "bad_tile", "message": "Unknown tile 0z."},
                    {"path": "hand", "code": "too_many", "message": "15 tiles."},
                ]
            )
        if kind == "not-found":
            raise NotFound("No such ruleset.", code="unknown_ruleset", path="ruleset")
        if kind == "http404":
            raise Http404("gone")
        if kind == "django-denied":
            raise PermissionDenied
        if kind == "crash":
            raise RuntimeError("boom")
        return Response({"kind": kind})


def plain_view(request, kind):
    """A Django view (not DRF) under /api/: its errors reach Django's own handling."""
    database_trouble(kind)
    if kind == "crash":
        raise RuntimeError("boom")
    if kind == "http404":
        raise Http404("gone")
    return HttpResponse("ok")


class NeedsLoginView(BaseView):
    """Raises the project's own NotAuthenticated, as a service or ``authorize`` does."""

    permission_classes = [AllowAny]

    def get(self, request):
        raise NotAuthenticated()


class AdminOnlyView(APIView):
    permission_classes = [IsAdminUser]

    def get(self, request):
        return Response({"ok": True})


class TightThrottle(ScopedRateThrottle):
    THROTTLE_RATES = {"tight": "2/min"}


class ThrottledView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [TightThrottle]
    throttle_scope = "tight"

    def get(self, request):
        return Response({"ok": True})


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = get_user_model()
        fields = ["id", "username"]


class UserListView(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = UserSerializer
    queryset = get_user_model().objects.order_by("id")


test_patterns = [
    path("validate/", ValidateView.as_view()),
    path("raise/<str:kind>/", RaiseView.as_view()),
    path("plain/<str:kind>/", plain_view),
    path("admin-only/", AdminOnlyView.as_view()),
    path("needs-login/", NeedsLoginView.as_view()),
    path("throttled/", ThrottledView.as_view()),
    path("users/", UserListView.as_view()),
]

urlpatterns = [path("api/test/", include(test_patterns)), *urlpatterns]
