from celery import current_app
from django.apps import AppConfig
from django.db.backends.signals import connection_created

from core.db import bound_answers


class CoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        # Every app's ``tasks`` module, registered in this process too (a worker does it at
        # start): jobs are queued by name (``core.jobs.job_queue``), so that a service never
        # imports the task module that calls it.
        current_app.autodiscover_tasks(force=True)
        # An outbox message goes when the task it asked for is done (core.outbox).
        from celery.signals import task_success

        from core.outbox import task_done

        task_success.connect(task_done, weak=False, dispatch_uid="core.outbox")
        # A PostgreSQL connection that stops answering fails, not hangs (core.db).
        connection_created.connect(bound_answers, dispatch_uid="core.db")
        # ``field__any_of=ids``: many ids in one parameter (core.lookups); a foreign key
        # takes only its own class's lookups, not every field's
        from django.db.models import Field, ForeignObject

        from core.lookups import AnyOf

        Field.register_lookup(AnyOf)
        ForeignObject.register_lookup(AnyOf)
