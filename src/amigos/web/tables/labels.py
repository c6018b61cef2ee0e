"""Every word the table's script shows or says, translated here so the script itself holds no text.

The server's error codes are translated here too: the script looks a refusal up by its code and
never shows (or matches) the server's English message.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from amigos.web.lobby.chat_labels import chat_action_labels
from amigos.web.tables.seat_names import LEVELS, POINTS, computer_label


def computer_names() -> dict[str, list[dict[str, str]]]:
    """Each computer player's name in the reader's language, by the number of players, the seat and
    the level: the table's script shows these in place of the shared (Spanish) names."""
    return {
        str(players): [
            {level: computer_label(seat, players, level) for level in LEVELS} for seat in range(players)
        ]
        for players in POINTS
    }


def error_labels() -> dict[str, str]:
    """What a player reads when the server refuses a command (docs/protocol.md, error codes)."""
    return {
        "bad_payload": _("The server did not understand that request."),
        "table_not_found": _("This table does not exist any more."),
        "not_seated": _("You have no seat at this table."),
        "not_joined": _("Reconnecting to the table…"),
        "not_playing": _("The table is not in play right now."),
        "not_your_turn": _("It is not your turn: wait for the smiley face."),
        "stale_version": _("The table moved on; look again before you play."),
        "illegal_play": _("That tile does not fit there."),
        "held_by_computer": _("A computer player holds your seat until you are back."),
        "not_organizer": _("Only the table's organizer can do that."),
        "not_all_accepted": _("The match can start only once every invited player has accepted."),
        "already_started": _("The match has already started; the table can no longer be cancelled."),
        "table_paused": _("The table waits for a player who is away; no move until they are back."),
        "not_invited": _("That invitation is not open any more."),
        "invitation_expired": _("The 30 seconds to answer are over."),
        "not_voting": _("The vote is closed."),
        "bad_choice": _("Choose Communication, Rematch or Rotate."),
        "empty": _("Write something first."),
        "too_long": _("That message is too long."),
        "flood": _("Too many messages too fast; wait a moment."),
        "busy": _("The table is moving to another server; try again in a moment."),
        "unknown_type": _("The server did not understand that request."),
        "unauthenticated": _("Your session ended."),
        "does_not_fit": _("That tile does not fit: choose one that stands out."),
        "offline": _("No connection: your move was not sent."),
        "no_reshuffle": _("A new deal can no longer be asked for: the first tile is down."),
    }


def table_labels() -> dict[str, object]:
    return {
        "errors": error_labels(),
        "arms": {
            "two-ended": {"up": _("Up / Left"), "down": _("Down / Right")},
            "spinner": {"left": _("Left"), "right": _("Right"), "up": _("Up"), "down": _("Down")},
        },
        "positions": {
            "organizer": _("organizer"),
            "right": _("right"),
            "partner": _("partner"),
            "left": _("left"),
        },
        # Each seat as its viewer sees it (issue 38, item 5): where it sits, and its team.
        "places": {
            "you": _("You"),
            "right": _("On your right"),
            "partner": _("Your partner"),
            "left": _("On your left"),
            "opposite": _("Your opponent"),
        },
        "team": _("Team %(team)s"),
        "tile": _("%(high)s and %(low)s"),
        "double": _("double %(value)s"),
        "tiles_held": _("%(count)s tiles"),
        "one_tile_held": _("1 tile"),
        "your_turn": _("Your turn."),
        "face_turn": _("(in turn)"),
        "face_angry": _("(passed: no tile to play)"),
        "turn_of": _("%(name)s's turn."),
        "played": _("%(name)s played %(tile)s on %(arm)s."),
        "led": _("%(name)s led with %(tile)s."),
        "system_played": _("The system laid %(tile)s for %(name)s (the only tile, 6 seconds)."),
        "passed": _("%(name)s passes."),
        "drew": _("%(name)s draws from the boneyard."),
        "you_drew": _("You draw %(tile)s."),
        "ends": _("Open ends: %(ends)s."),
        "end_value": _("%(arm)s %(value)s"),
        "points_scored": _("%(name)s scores %(points)s."),
        "card": _("%(colour)s card for %(name)s."),
        "colours": {"yellow": _("Yellow"), "blue": _("Blue"), "red": _("Red")},
        "card_counts": _("Cards: %(yellow)s yellow, %(blue)s blue, %(red)s red"),
        "hand_started": _("Hand %(number)s. %(name)s leads."),
        "lead_draw": _("Draw for the lead: %(draws)s. %(name)s leads."),
        "lead_draw_entry": _("%(name)s %(tile)s"),
        "hand_voided": _(
            "%(name)s asked for a new deal: this deal is void (its key: %(key)s). The hand is dealt again."
        ),
        "hand_ended_domino": _("Hand over: %(name)s went out. %(side)s score %(points)s."),
        "hand_ended_block": _("Hand over: blocked. %(side)s score %(points)s."),
        "hand_ended_tie": _("Hand over: blocked with a tie; nobody scores."),
        "hand_ended_block_draw": _("Hand over: blocked."),
        "match_ended": _("The match is over. %(side)s win."),
        "match_ended_unfinished": _("The match ended without reaching its target."),
        "side": _("%(names)s"),
        "and": _(" and "),
        "you": _("you"),
        "computer": _("computer"),
        "levels": {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")},
        "invited": _("invited…"),
        # The box before the match (spec §2): the organizer's start button, and what the others read.
        "start_answers": _("The match can start once every invited player has accepted."),
        "start_ready": _("Everyone has accepted: start the match when you are ready."),
        "start_waiting": _("Waiting for %(name)s to start the match."),
        "cancelled_not_started": _(
            "The organizer did not start the match in time: the table is cancelled. Back to the meeting room…"
        ),
        "refused": _("%(name)s did not accept the invitation."),
        "expired": _("%(name)s did not answer in time."),
        "cancelled": _("The table was cancelled; back to the meeting room."),
        "cancelled_suspension": _(
            "A player invited to this table was suspended: the table is cancelled. Back to the meeting room…"
        ),
        "cancelled_invitations": _(
            "Not every invitation was accepted in time: the table is cancelled. Back to the meeting room…"
        ),
        "disconnected": _("%(name)s lost the connection; the game waits."),
        "abandon": _("%(name)s left while the table was waiting (Abandono)."),
        "reconnected": _("%(name)s is back."),
        "computer_holds": _("A computer player holds %(name)s's seat."),
        "ended_abandonment": _("%(name)s did not come back: the match ends unfinished."),
        "ended_suspension": _("A suspension ends the match unfinished."),
        "back_to_lobby": _("Back to the meeting room…"),
        "seat_returned": _("%(name)s took the seat back."),
        "waiting_for": _("Waiting for %(name)s: %(time)s"),
        "connection_lost": _("Connection lost; trying again…"),
        "connection_back": _("Connected again."),
        "replaying": _("Replaying the hand up to now…"),
        "no_blocking": _("%(name)s faces no blocking situation."),
        "fresh_time": _("The table moved to another server: %(name)s has a full clock again."),
        "seconds": _("%(seconds)s s"),
        "clock_until": _("until %(when)s"),
        "clock_label": _("Time left for %(name)s"),
        "thinking": _("thinking…"),
        "tab_new_messages": _("(new messages)"),
        "tab_your_turn": _("(your turn)"),
        "computer_names": computer_names(),
        # Translators: the word that names a computer player on the seats, with a hyphen where it
        # may break on a narrow seat box (browsers do not hyphenate every language themselves).
        "name_breaks": _("Com-puter"),
        "situations": {
            "blocking": _("blocking situation: 60 s"),
            "single": _("one tile to play: 5 s"),
            "normal": _("20 s"),
            "timed": _("30 s"),
            "computer": _("the computer is thinking"),
            "correspondence": _("a day per move"),
        },
        "choose_arm": _("Where does %(tile)s go?"),
        "choose_left": _("Which half of %(tile)s faces left?"),
        # The arm question closed because its turn ended before the player chose (table.js).
        "question_closed": _("The turn changed before you chose: your tile was not played."),
        "half": _("%(value)s on the left"),
        "voted": _("%(name)s chose %(choice)s."),
        "vote_left": _("%(name)s left the table."),
        "choices": {"communicate": _("Communication"), "rematch": _("Rematch"), "rotate": _("Rotate")},
        "not_chosen": _("not chosen yet"),
        "votes_communicate": _("Not everyone chose the same: back to the meeting room."),
        "votes_next": _("Everyone chose %(choice)s: on to the next table."),
        "verify_ok": _("Verified: the key matches the commitment and deals exactly these hands."),
        "verify_commit_only": _("Verified: the key matches the commitment published at the start."),
        "verify_bad": _("The key does NOT match: this deal cannot be checked."),
        "verify_deal_bad": _("The key matches the commitment but not the tiles played."),
        "verify": _("Verify hand %(number)s"),
        "hand_column": _("Hand"),
        "review_hand": _("what my plays in hand %(number)s cost (opens in a new tab)"),
        "no_score_row": _("No score"),
        "total": _("Total"),
        "play_points": _("Points during play"),
        "boneyard": _("Boneyard: %(count)s"),
        "spectator": _("You are watching this table."),
        "actions": chat_action_labels(),
    }


def lobby_labels() -> dict[str, object]:
    """Words of the lobby's tables panel (the live list and the invitation)."""
    return {
        "errors": error_labels(),
        "invitation": _("%(organizer)s invites you to “%(name)s” (%(game)s) as %(position)s."),
        "positions": {
            "organizer": _("organizer"),
            "right": _("the organizer's right"),
            "partner": _("the organizer's partner"),
            "left": _("the organizer's left"),
        },
        "seconds_left": _("%(seconds)s seconds to answer"),
        "answer_by": _("You can answer until %(when)s."),
        "invitation_closed": _("The invitation to “%(name)s” is closed."),
        "nobody_plays": _("No table is being played right now."),
        "watch": _("Watch %(name)s"),
        "inviting": _("waiting for players"),
        "playing": _("playing"),
    }
