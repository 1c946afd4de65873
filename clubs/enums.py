"""The clubs app's choices and constants, apart from its models.

Kept in a module of their own so that code which only names a role or a state (the pages, a
form's choices) reads them without importing a model: ``clubs.models`` keeps every name working
(``TableSession.Status`` is :class:`SessionStatus`), so its fields' choices are these very
classes. Only ``django.db.models`` is imported here, for the Choices base classes.
"""

from __future__ import annotations

from django.db import models


class ConfirmationRule(models.TextChoices):
    """Bridgemate's rule at a table (issue 24 §2): whether a hand counts in totals, standings,
    ratings and statistics only once the players other than the one who entered it confirmed
    it. ``shown``: confirmations and disputes are shown, every hand counts as it is saved."""

    SHOWN = "shown", "Confirmations are shown only"
    THREE = "three", "A hand counts once three other players confirmed it"
    TWO = "two", "A hand counts once two other players confirmed it"


class ClubVisibility(models.TextChoices):
    """Who may see a club's results (``Club.Visibility``)."""

    PUBLIC = "public", "Public: results and ranking pages are open to everyone"
    MEMBERS = "members", "Members only"


class Role(models.TextChoices):
    """Roles in a club, each including the rights of those below it."""

    OWNER = "owner", "Owner"
    ORGANISER = "organiser", "Organiser"
    #: 裁判: a tournament's penalties (and what a scorer may do)
    REFEREE = "referee", "Referee"
    SCORER = "scorer", "Scorer"
    MEMBER = "member", "Member"


ROLE_RANK = {Role.MEMBER: 1, Role.SCORER: 2, Role.REFEREE: 3, Role.ORGANISER: 4, Role.OWNER: 5}


class SessionStatus(models.TextChoices):
    """Whether a table session takes hands (``TableSession.Status``)."""

    OPEN = "open", "Open"
    CLOSED = "closed", "Closed"


class SessionMode(models.TextChoices):
    """How a hand of the table ends (``TableSession.Mode``)."""

    XUEZHAN = "xuezhan", "血战到底 (blood battle)"
    SINGLE = "single", "普通 (hand ends at the first win)"


class SessionKind(models.TextChoices):
    """What the table counts for: a club's own game, or a competition's table (whose
    scores are points of a ranking, not money: a player's totals keep them apart)
    (``TableSession.Kind``)."""

    CLUB = "club", "Club session"
    TOURNAMENT = "tournament", "Tournament table"


class RevisionAction(models.TextChoices):
    """What a revision did to its hand (``HandRevision.Action``)."""

    CREATED = "created", "Created"
    CORRECTED = "corrected", "Corrected"
    DELETED = "deleted", "Deleted"


class ConfirmationVerdict(models.TextChoices):
    """A seated player's word on a hand, or the organiser's ruling
    (``HandConfirmation.Verdict``)."""

    CONFIRM = "confirm", "Confirmed"
    DISPUTE = "dispute", "Disputed"
    #: the organiser or referee ruled: the hand counts as it stands (after a correction or not)
    RULING = "ruling", "Ruled by the organiser"


class InvitationKind(models.TextChoices):
    """What a link is for (``Invitation.Kind``)."""

    JOIN = "join", "Invitation to join"
    RESET = "reset", "Password-reset link"


class InvitationState(models.TextChoices):
    """Whether a link still works, and if not why (``Invitation.State``)."""

    OPEN = "open", "Open"
    USED = "used", "Used"
    REVOKED = "revoked", "Revoked"
    EXPIRED = "expired", "Expired"
