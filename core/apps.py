from celery import current_app
from django.apps import AppConfig


class CoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        # Every app's ``tasks`` module, registered in this process too (a worker does it at
        # start): jobs are queued by name (``core.jobs.job_queue``), so that a service never
        # imports the task module that calls it.
        current_app.autodiscover_tasks(force=True)
