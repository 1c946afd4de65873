"""The load run (``make load``; never part of ``make test``): gunicorn, PostgreSQL and a real
worker under 50 scorers and 10 readers for a minute, then checks that nothing was lost,
doubled or left wrong. Entry point: ``python -m tests.load.run`` (``tests/load/run.py``)."""
