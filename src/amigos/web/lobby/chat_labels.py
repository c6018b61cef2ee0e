"""The words of the chat lines' actions (mute, report) for the lobby's and the table's scripts.

Both pages pass these to their script, so the script holds no text and looks a refusal up by its
code (`errors`), never by the server's English message. They live with the lobby's chat, which the
tables' chat builds on, so neither page imports moderation for its words (their translations are
in moderation's catalog, where they were first written; Django reads every catalog).
"""

from __future__ import annotations

from django.utils.translation import gettext as _


def chat_action_labels() -> dict[str, object]:
    return {
        "mute": _("Mute"),
        "mute_player": _("Mute %(name)s"),
        "unmute": _("Unmute"),
        "unmute_player": _("Unmute %(name)s"),
        "report": _("Report"),
        "report_player": _("Report %(name)s"),
        "reported": _("Thank you: the administrators will review your report."),
        "muted_now": _("You no longer see what %(name)s writes."),
        "unmuted_now": _("You see what %(name)s writes again."),
        "muted_title": _("Players you muted"),
        "errors": {
            "bad_comment": _("Say in a few words what happened (at most 500 characters)."),
            "report_self": _("You cannot report yourself."),
            "mute_self": _("You cannot mute yourself."),
            "unknown_player": _("That player does not exist any more."),
            "unknown_line": _("That message does not exist any more."),
            "unknown_table": _("This table does not exist any more."),
            "not_at_table": _("That player is not at this table."),
            "flood": _("You are doing that too often; wait a few seconds."),
            "offline": _("No connection: try again in a moment."),
            "other": _("The server did not understand that request."),
        },
    }
