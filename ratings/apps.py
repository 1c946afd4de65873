from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings and statistics"

    def ready(self) -> None:
        # Models are importable only once the app registry is ready: hence the imports here.
        from clubs.signals import session_changed
        from ratings.receivers import ratings_follow_session

        session_changed.connect(ratings_follow_session, dispatch_uid="ratings-follow-session")
