"""What every page view shares: finding a club the visitor may see, and a refusal in words.

A club the visitor may not read is a 404, never a 403: a members-only club does not exist for an
outsider. A service's refusal (``Invalid``, ``Conflict`` …) becomes messages in the visitor's
language: the code's own translation where ``ERROR_TEXT`` has one, else the service's message.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from clubs import selectors
from core.http import service_error_items

if TYPE_CHECKING:
    from clubs.models import Club

# Codes a person meets on a page, in words. Others fall back to the service's own message.
ERROR_TEXT = {
    "required": _("This field is required."),
    "invalid": _("This value is not valid."),
    "session_closed": _("This table is closed."),
    "hand_exists": _("A hand with this number is already recorded."),
    "not_zero_sum": _("The totals do not add up to zero."),
    "throttled": _("Too many attempts. Try again later."),
    "slug_taken": _("This address is taken; choose another."),
    "name_matches_player": _(
        "A player of this name exists: choose him from the club's players, or tick that this "
        "is a new person."
    ),
    "already_registered": _("This player is already entered."),
    "registration_has_played": _("This player has played a round: withdraw him instead."),
    "tournament_finished": _("The tournament is finished: its results are frozen."),
    "round_locked": _("This round is over (the next one is seated): its results are locked."),
    "seating_in_progress": _("A round is being seated: wait for its tables."),
    "no_rounds_left": _("Every round of the tournament is seated."),
    "round_not_complete": _("Not every table of the round has its totals yet."),
    "too_few_players": _("A round needs at least four players who play."),
    "invalid_points": _("Four whole numbers for 1st to 4th, none above the one before."),
    "not_registered": _("This player is not entered in the tournament."),
    "no_such_round": _("That round is not seated yet."),
    "penalty_revoked": _("This penalty is already revoked."),
    "invalid_penalty": _("A penalty is a whole number of placement points, from 1 to 1000."),
    "round_not_seated": _("The round is not seated yet."),
    "clock_running": _("The round's clock is running: add time instead."),
    "clock_not_started": _("The round's clock is not started."),
    "invalid_minutes": _("Give the minutes: a whole number."),
    "no_such_table": _("The round has no such table."),
    "invalid_hidden_rounds": _("Hide fewer rounds than the tournament has (0: none)."),
    "table_not_done": _("This table has no result yet."),
    "substitute_plays_this_round": _(
        "This player plays the round already (at a table or on a bye): he would count twice."
    ),
    "not_seated_here": _("Choose a registered player seated at this table."),
    "already_seated": _("This player already sits at the table."),
    "already_bettor": _("This player bets at the table (叫马)."),
    "finals_short": _("Fewer players are here to play than the finals seat."),
    "invalid_finals_players": _("The top 4, 8 or 16 play the finals (or no finals)."),
    "invalid_finals_rounds": _(
        "At least one final round, and at least one round before the finals."
    ),
    "finals_started": _("The finals are seated: their settings are fixed."),
    "round_has_results": _("The round has results: it can no longer be seated again."),
    "not_latest_round": _("Only the latest round can be seated again."),
    "duplicate_undecided": _("Decide each flagged row: a new person, skip it, or who he is."),
    "invalid_decision": _("Choose new, skip, or one of the players the row was matched with."),
    "invalid_rating": _("A seed rating is a whole number (or nothing)."),
    "no_name_column": _("The file needs a header row with a name column (姓名)."),
    "no_rows": _("The file lists no player."),
    "not_text": _("A CSV file in UTF-8 or GB 18030 (as Excel saves it)."),
    "file_too_large": _("The file is too large."),
    "too_many_rows": _("The file has too many rows."),
    "invalid_name": _("A name of at most 80 characters, without control characters."),
    "table_disputed": _("This table is disputed: the referee resolves it first."),
    "not_disputed": _("This table is not disputed."),
    "invalid_first_round": _("An entry plays from a round not seated yet, up to the last one."),
    "four_players": _("A table seats four different players."),
    "not_a_member": _("This player is not a member of the club."),
    "duplicate_bettor": _("Each bettor needs a name of his own."),
    "bettor_is_seated": _("A player at the table cannot also bet on it."),
    "last_owner": _("A club keeps at least one owner."),
    "already_member": _("This player is already a member of the club."),
    "invalid_role": _("An invitation is for a scorer or a member."),
    "player_has_login": _("This player already has a login."),
    "login_has_player": _(
        "Your login already belongs to another player. Create a new login with this link."
    ),
    "username_taken": _("This username is taken."),
    "no_login": _("This member has no login yet: invite him instead."),
    "reset_not_allowed": _(
        "You may reset the password only of someone whose role is below yours in every club "
        "he belongs to."
    ),
    "invitation_used": _("This link was already used."),
    "invitation_revoked": _("This link was revoked."),
    "invitation_expired": _("This link has expired."),
    "no_such_link": _("There is no such link."),
    "reset_no_longer_allowed": _(
        "This link may no longer reset this login: whoever made it may not reset his password "
        "now. Ask the club's owner for a new link."
    ),
    "dealer_required": _("Say who deals this hand: the hand before does not tell."),
    "hand_not_finished": _(
        "This hand is not finished: 血战 ends with three winners or a draw (流局) with every "
        "player still in, 普通 with the first win."
    ),
    "table_complete": _("This table has played all its hands."),
    "reason_required": _("Say why, in a few words."),
    "session_has_hands": _("This table has hands: its totals come from them."),
    "session_has_results": _("This table's final result was entered: it takes no hands."),
    "winning_tile_missing": _(
        "A winner entered by his tiles needs the winning tile: tap it, or type it after the hand."
    ),
    "not_a_winning_shape": _("These tiles are not a winning hand."),
    "wrong_tile_count": _(
        "Wrong number of tiles: a winning hand has 14, a hand at the draw 13 (a meld counts 3)."
    ),
    "too_many_copies": _("A tile appears more than four times in this hand."),
    "three_suits": _("The hand holds three suits: it cannot win (缺一门)."),
    "declared_void_suit": _("The hand holds its declared void suit (定缺)."),
    "too_many_wins": _("More than three wins in one 血战 hand."),
    "player_already_won": _("This player has already won this hand."),
    "discarder_is_winner": _("A player cannot win on his own discard."),
    "discarder_already_won": _("The discarder has already won and is out of the hand."),
    "duplicate_winner": _("The same player is listed twice as a winner."),
    "hand_already_over": _("The hand was already over before this event."),
    "draw_after_end": _("A draw after the hand was over."),
    "draw_hand_of_winner": _("A winner shows no tiles at the draw."),
    "draw_hand_missing": _("At a draw every player still in shows his hand (or is declared)."),
    "kong_flower_without_kong": _("杠上花 needs the winner's own kong just before."),
    "kong_flower_not_self_draw": _("杠上花 is a self-drawn win."),
    "kong_discard_without_kong": _("杠上炮 needs the discarder's kong just before."),
    "on_replacement_without_kong": _(
        "杠上杠 needs the same player's kong just before: tick it on the kong he made with the "
        "replacement tile of his kong before."
    ),
    "claim_in_void_suit": _("A player cannot pung or kong the suit he declared void (定缺)."),
    "heavenly_impossible": _("天胡 is the dealer's self-drawn win on his first tiles."),
    "earthly_impossible": _("地胡 is a non-dealer's win in the first go-round."),
    "earthly_with_melds": _("地胡 cannot have melds."),
    "seven_pairs_with_melds": _("七对 has no melds."),
    "situation_conflict": _("These situation flags cannot all be true."),
    "concealed_pung": _("A pung is made from another's discard, not concealed."),
    "robbing_kong_mismatch": _("抢杠 wins on the tile being added to a pung."),
    "pattern_not_in_ruleset": _("This ruleset has no such pattern."),
    "pattern_mismatch": _("A hand with these facts would be another pattern."),
    "pattern_needs_situation": _("This pattern needs its situation flag (天胡/地胡)."),
    "pattern_with_melds": _("This pattern cannot have melds."),
    "seven_pairs_with_roots": _(
        "Seven pairs with a four-of-a-kind is 龙七对 here: declare that instead."
    ),
    "long_seven_pairs_without_root": _("龙七对 needs at least one root."),
    "roots_out_of_range": _("Too many roots for this pattern."),
    "total_out_of_range": _("A total is at most a thousand million (1,000,000,000) either way."),
    "roots_below_kongs": _(
        "Every kong is a root: the roots cannot be fewer than the player's kongs."
    ),
    "extra_not_in_ruleset": _("This ruleset does not count that extra."),
    "extra_impossible": _("That extra is impossible with this pattern."),
    "extra_missing": _("A hand with these facts also has an extra: tick it."),
    "jingoudiao_without_melds": _("金钩钓 needs the winner's four melds."),
    "declaration_conflict": _("This declaration contradicts what the hand records."),
    "invalid_wait_pattern": _("A ready player cannot be declared waiting on this pattern."),
    "wait_missing": _("A ready player needs his wait (pattern and roots)."),
    "kong_not_in_melds": _("The player's kong is missing from his melds."),
    "meld_kong_without_event": _("A kong in the melds has no kong in the hand's events."),
    "notation_character": _("Tiles are digits with 万/筒/条 or m/p/s, e.g. 123m."),
    "notation_missing_suit": _("Digits need their suit (m/p/s or 万/筒/条)."),
    "robbing_kong_tile_missing": _(
        "抢杠: give the winning tile, or record the added kong (弯杠) that was robbed just before "
        "the win."
    ),
}

# A member's role in words (the models' labels are English only).
ROLE_TEXT = {
    "owner": _("Owner"),
    "organiser": _("Organiser"),
    "referee": _("Referee"),
    "scorer": _("Scorer"),
    "member": _("Member"),
}


def error_messages(exc: Exception) -> list[str]:
    """A service error as the lines a page shows (path first where it helps)."""
    lines = []
    for item in service_error_items(exc):
        text = str(ERROR_TEXT.get(item["code"], item["message"]))
        lines.append(text)
    return lines


def club_for(user, slug: str) -> Club:
    """The club with this slug if the visitor may read it; 404 otherwise."""
    club = selectors.club_visible(user, slug)
    if club is None:
        raise Http404
    return club


class LoginRequired(Exception):
    """Raised by a page that needs a login: ``pages.middleware`` sends the visitor to sign in
    and back."""


def require_role(user, club: Club, role: str) -> None:
    """For a visitor who may read the club: sign in first (anonymous), 403 (a login without the
    role). A club he may not read is 404, whoever he is: a members-only club does not exist for
    an outsider, signed in or not (the 404 page offers a signed-out visitor the sign-in)."""
    if not selectors.can_read(user, club):
        raise Http404
    if not user.is_authenticated:
        raise LoginRequired
    if not selectors.has_role(user, club, role):
        raise PermissionDenied


#: the days an evening's page exists for (its day before and after must be dates too)
EVENING_DAYS = (date(1900, 1, 1), date(9998, 12, 31))


def whole_number(text: str, digits: int = 9) -> int | None:
    """``text`` as a whole number in ASCII digits, at most ``digits`` of them; else None.
    (``str.isdigit`` takes "²" and "٣" for digits, which ``int`` refuses, as it refuses 4,300
    digits and more: each was a 500 where a query or a form gave one, tests/pages/
    test_page_fuzz.py.)"""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= digits else None


def day_or_404(day: str) -> date:
    """The day an address names (``2026-11-03``); 404 for anything else."""
    try:
        when = date.fromisoformat(day)
    except ValueError as e:
        raise Http404 from e
    if not EVENING_DAYS[0] <= when <= EVENING_DAYS[1]:
        raise Http404
    return when
