from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Models are importable only once the app registry is ready: hence the imports here.
        from django.db.models.signals import post_delete, post_save

        from clubs.signals import session_changed, session_written
        from core.jobs import register_subject
        from tournaments.models import Tournament
        from tournaments.receivers import (
            LIVE_MODELS,
            standings_follow_table,
            tournament_table_written,
            tournament_written,
        )
        from tournaments.selectors import can_read_tournament

        session_changed.connect(standings_follow_table, dispatch_uid="tournament-standings")
        session_written.connect(tournament_table_written, dispatch_uid="tournament-live-table")
        for model in LIVE_MODELS:
            for signal in (post_save, post_delete):
                signal.connect(
                    tournament_written, sender=model, dispatch_uid=f"live-{model.__name__}"
                )
        register_subject(
            Tournament, field="tournament", label=lambda t: t.slug, readable=can_read_tournament
        )
