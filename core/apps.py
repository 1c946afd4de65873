from celery import current_app
from django.apps import AppConfig
from django.contrib.auth.signals import user_login_failed
from django.db.backends.signals import connection_created

from core.db import bound_answers
from core.logins import count_failure


class CoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        # Every app's ``tasks`` module, registered in this process too (a worker does it at
        # start): jobs are queued by name (``core.jobs.job_queue``), so that a service never
        # imports the task module that calls it.
        current_app.autodiscover_tasks(force=True)
        # Failed logins are counted wherever they happen: the token login, the admin's form.
        user_login_failed.connect(count_failure, dispatch_uid="core.logins")
        # A PostgreSQL connection that stops answering fails, not hangs (core.db).
        connection_created.connect(bound_answers, dispatch_uid="core.db")
