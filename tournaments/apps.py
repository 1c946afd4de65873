from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Models are importable only once the app registry is ready: hence the imports here.
        from clubs.signals import session_changed
        from core.jobs import register_subject
        from tournaments.models import Tournament
        from tournaments.receivers import standings_follow_table
        from tournaments.selectors import can_read_tournament

        session_changed.connect(standings_follow_table, dispatch_uid="tournament-standings")
        register_subject(
            Tournament, field="tournament", label=lambda t: t.slug, readable=can_read_tournament
        )
