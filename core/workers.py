"""How the project's Celery tasks are run."""

from __future__ import annotations

#: for a task that gives the same result when it runs twice (it recomputes, or it writes what
#: is not written yet): acknowledged once it is done, so a worker killed in the middle of it
#: (SIGKILL, out of memory) leaves it in the queue for another worker
SAFE_TO_REPEAT = {"acks_late": True, "reject_on_worker_lost": True}
