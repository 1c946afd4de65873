"""The exchange's API: a tournament's entry list imported from a CSV (preview, then entries)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Role
from core.api import ApiView
from exchange.entries_import import EntriesPreview, entries_import, preview
from tournaments.api import tournament_for


class EntriesImportInSerializer(serializers.Serializer):
    csv = serializers.CharField(
        max_length=200 * 1024, trim_whitespace=False,
        help_text="the entry list: a header (name, club, seed_rating) and a row per player",
    )  # fmt: skip
    decisions = serializers.DictField(
        child=serializers.CharField(max_length=20), required=False, default=dict,
        help_text="line → new, skip, or the id of the player a flagged row is",
    )  # fmt: skip
    dry_run = serializers.BooleanField(default=False, help_text="the preview only")


class MatchOutSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["same_name", "same_pinyin", "near"])
    name = serializers.CharField()
    player = serializers.IntegerField(allow_null=True)
    line = serializers.IntegerField(allow_null=True, help_text="a row above in the file")
    entered = serializers.BooleanField()


class EntryRowOutSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    seed_rating = serializers.IntegerField(allow_null=True)
    matches = MatchOutSerializer(many=True)
    decision = serializers.CharField(help_text="empty: none (a flagged row needs one)")
    problems = serializers.ListField(child=serializers.DictField())


class EntriesImportOutSerializer(serializers.Serializer):
    rows = EntryRowOutSerializer(many=True)
    entered = serializers.ListField(child=serializers.IntegerField(), help_text="player ids")
    skipped = serializers.ListField(child=serializers.IntegerField(), help_text="lines")


def _answer(found: EntriesPreview, entered: list[int], skipped: list[int]) -> dict[str, Any]:
    rows = EntryRowOutSerializer(found.rows, many=True).data
    return {"rows": rows, "entered": entered, "skipped": skipped}


class EntriesImportView(ApiView):
    """报名表: a tournament's entries from a CSV (an organiser). ``dry_run`` answers the
    preview: each row with whom it may be (the same name, the same pinyin, a near match).
    Otherwise every row is entered in one step — refused, with each row named, while a row is
    bad or a flagged row has no decision."""

    @extend_schema(
        request=EntriesImportInSerializer,
        responses={200: EntriesImportOutSerializer, 201: EntriesImportOutSerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug, Role.ORGANISER)
        data = self.valid(EntriesImportInSerializer, request)
        raw = data["csv"].encode()
        if data["dry_run"]:
            found = preview(tournament, raw, data["decisions"])
            return Response(_answer(found, [], []))
        done = entries_import(tournament=tournament, data=raw, decisions=data["decisions"])
        entered, skipped = [e.player_id for e in done.entered], [r.line for r in done.skipped]
        return Response(_answer(done.preview, entered, skipped), status=201)
