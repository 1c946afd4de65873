from django.apps import AppConfig


class PagesConfig(AppConfig):
    name = "pages"
    verbose_name = "Pages"

    def ready(self) -> None:
        from pages.live.transport import install

        install()
