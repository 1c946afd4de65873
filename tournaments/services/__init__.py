"""Writes of the tournaments app. One transaction each; Celery tasks are queued on commit.

Seating and standings run in Celery tasks (``tournaments.tasks``), whose bodies are
:func:`round_seat` and :func:`standings_compute` here; each is queued by name with a job
record (``core.jobs``) that ``GET /api/v1/tasks/{id}`` reads.

One module per seam, each name read from here as before: ``tournament`` (created, changed),
``registrations``, ``locks`` (rounds locked and unlocked), ``rounds`` (started, seated, a
table's result), ``standings`` (asked for, revealed, reconciled, computed), ``tables`` (private
links, cards, disputes, the approve gate), ``substitutes``, ``clock``, ``penalties``.
"""

from .clock import (  # noqa: F401
    CLOCK_MAX_MINUTES,
    EXTEND_MAX_MINUTES,
    round_clock_extend,
    round_clock_start,
)
from .locks import (  # noqa: F401
    _LOCK_MESSAGES,
    ROUND_LOCKED,
    TOURNAMENT_FINISHED,
    _freeze,
    _lock,
    _tell_tables,
    round_lock,
    round_unlock,
)
from .penalties import (  # noqa: F401
    PENALTY_MAX,
    penalty_give,
    penalty_revoke,
)
from .registrations import (  # noqa: F401
    _new_player,
    _next_round_number,
    _plan_changed,
    registration_create,
    registration_delete,
    registration_update,
)
from .rounds import (  # noqa: F401
    RESEAT_SEED_STEP,
    SEATING_REQUEST_TTL,
    SEATING_TASK,
    TABLE_RESULT_FIELDS,
    _active_players,
    _seat_again,
    _seat_finals,
    _seating_lost,
    _seating_summary,
    round_reseat,
    round_seat,
    round_seating_failed,
    round_start,
    table_result_enter,
)
from .standings import (  # noqa: F401
    _SNAPSHOT_INSERT,
    COALESCE_SECONDS,
    RECONCILE_BATCH,
    RECONCILE_TASK,
    STANDINGS_REQUEST_TTL,
    STANDINGS_TASK,
    _compact_json,
    _snapshot_store,
    standings_compute,
    standings_reconcile,
    standings_request,
    standings_reveal,
)
from .substitutes import (  # noqa: F401
    substitute_remove,
    substitute_seat,
)
from .tables import (  # noqa: F401
    private_key_renew,
    private_keys,
    table_approve,
    table_cards,
    table_dispute,
    table_dispute_resolve,
)
from .tournament import (  # noqa: F401
    FINALS_FIELDS,
    FINALS_SIZES,
    RULE_FIELDS,
    _check_confirmation_rule,
    _check_finals,
    _check_rules,
    tournament_create,
    tournament_update,
)
