from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from scoring.signals import session_changed
        from tournaments.receivers import standings_follow_table

        session_changed.connect(standings_follow_table, dispatch_uid="tournament-standings")
