from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings and statistics"

    def ready(self) -> None:
        # Models are importable only once the app registry is ready: hence the imports here.
        from clubs.signals import club_changed, session_changed
        from ratings import read_versions
        from ratings.receivers import awards_follow_club, ratings_follow_session

        session_changed.connect(ratings_follow_session, dispatch_uid="ratings-follow-session")
        club_changed.connect(awards_follow_club, dispatch_uid="ratings-awards-follow-club")
        read_versions.connect()
