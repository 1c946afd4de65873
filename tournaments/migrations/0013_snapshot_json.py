"""A standings snapshot's rows (and the rows the players see meanwhile) kept as ``json``, the
text as written, rather than ``jsonb`` (PostgreSQL): a snapshot is written whole on every
recompute and read back whole, never searched inside, and parsing its megabytes into ``jsonb``
was most of the write at 10,000 players (issue 25). The values read back are the same; the
columns keep their lz4 compression (``0012``: a change of type resets it, so it is set again,
either way)."""

from importlib import import_module

import tournaments.models
from django.db import migrations

lz4 = import_module("tournaments.migrations.0012_snapshot_lz4").lz4


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0012_snapshot_lz4'),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, lz4),
        migrations.AlterField(
            model_name='standingssnapshot',
            name='rows',
            field=tournaments.models.StoredJSONField(default=list, help_text='the standings, numbers as numbers (``tournaments.readmodels``)'),
        ),
        migrations.AlterField(
            model_name='standingssnapshot',
            name='visible',
            field=tournaments.models.StoredJSONField(blank=True, help_text='while the last rounds are hidden: the standings the players see (through, rounds_complete, tables_counted, points_scale, rows); null: they see these', null=True),
        ),
        migrations.RunPython(lz4, migrations.RunPython.noop),
    ]
