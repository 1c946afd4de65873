from tests.scoring.engine.records import PINGHU, XUEZHAN, random_record  # noqa: F401  (moved)
