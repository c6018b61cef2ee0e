"""The events tables, columns and models named in Spanish and English for the administration."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0003_hand_end_vocabulary"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="event",
            options={"ordering": ["-created_at"], "verbose_name": "event", "verbose_name_plural": "events"},
        ),
        migrations.AlterModelOptions(
            name="eventplayer",
            options={
                "ordering": ["number"],
                "verbose_name": "player of an event",
                "verbose_name_plural": "players of events",
            },
        ),
        migrations.AlterModelOptions(
            name="handrecord",
            options={"ordering": ["index"], "verbose_name": "hand", "verbose_name_plural": "hands"},
        ),
        migrations.AlterModelOptions(
            name="penalty",
            options={
                "ordering": ["round", "created_at"],
                "verbose_name": "castigo",
                "verbose_name_plural": "castigos",
            },
        ),
        migrations.AlterModelOptions(
            name="tablematch",
            options={
                "ordering": ["round", "table"],
                "verbose_name": "match at a table",
                "verbose_name_plural": "matches at tables",
            },
        ),
        migrations.AlterModelOptions(
            name="tablenote",
            options={
                "ordering": ["created_at"],
                "verbose_name": "note of a table",
                "verbose_name_plural": "notes of tables",
            },
        ),
        migrations.AlterField(
            model_name="event",
            name="created_at",
            field=models.DateTimeField(auto_now_add=True, verbose_name="created at"),
        ),
        migrations.AlterField(
            model_name="event",
            name="current_round",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="current round"),
        ),
        migrations.AlterField(
            model_name="event",
            name="finished_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="finished at"),
        ),
        migrations.AlterField(
            model_name="event",
            name="organizer",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="organized_events",
                to=settings.AUTH_USER_MODEL,
                verbose_name="organizer",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="started_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="started at"),
        ),
        migrations.AlterField(
            model_name="event",
            name="status",
            field=models.CharField(
                choices=[("draft", "Being set up"), ("running", "Under way"), ("finished", "Finished")],
                default="draft",
                max_length=10,
                verbose_name="status",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="version",
            field=models.PositiveIntegerField(default=0, verbose_name="version"),
        ),
        migrations.AlterField(
            model_name="eventplayer",
            name="event",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="players",
                to="events.event",
                verbose_name="event",
            ),
        ),
        migrations.AlterField(
            model_name="eventplayer",
            name="number",
            field=models.PositiveSmallIntegerField(verbose_name="number"),
        ),
        migrations.AlterField(
            model_name="eventplayer",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="event_seats",
                to=settings.AUTH_USER_MODEL,
                verbose_name="account",
            ),
        ),
        migrations.AlterField(
            model_name="handrecord",
            name="created_at",
            field=models.DateTimeField(auto_now_add=True, verbose_name="created at"),
        ),
        migrations.AlterField(
            model_name="handrecord",
            name="end",
            field=models.CharField(max_length=12, verbose_name="how it ended"),
        ),
        migrations.AlterField(
            model_name="handrecord",
            name="entered_by",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="entered by",
            ),
        ),
        migrations.AlterField(
            model_name="handrecord",
            name="index",
            field=models.PositiveSmallIntegerField(verbose_name="index"),
        ),
        migrations.AlterField(
            model_name="handrecord",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="hands",
                to="events.tablematch",
                verbose_name="match",
            ),
        ),
        migrations.AlterField(
            model_name="handrecord",
            name="points",
            field=models.PositiveIntegerField(default=0, verbose_name="points"),
        ),
        migrations.AlterField(
            model_name="handrecord",
            name="side",
            field=models.CharField(max_length=1, verbose_name="pair"),
        ),
        migrations.AlterField(
            model_name="penalty",
            name="created_at",
            field=models.DateTimeField(auto_now_add=True, verbose_name="created at"),
        ),
        migrations.AlterField(
            model_name="penalty",
            name="event",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="penalties",
                to="events.event",
                verbose_name="event",
            ),
        ),
        migrations.AlterField(
            model_name="penalty",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="penalties",
                to="events.eventplayer",
                verbose_name="player",
            ),
        ),
        migrations.AlterField(
            model_name="penalty",
            name="points",
            field=models.PositiveIntegerField(verbose_name="points"),
        ),
        migrations.AlterField(
            model_name="penalty",
            name="reason",
            field=models.CharField(blank=True, max_length=120, verbose_name="reason"),
        ),
        migrations.AlterField(
            model_name="penalty",
            name="round",
            field=models.PositiveSmallIntegerField(verbose_name="round"),
        ),
        migrations.AlterField(
            model_name="tablematch",
            name="end",
            field=models.CharField(
                blank=True,
                choices=[
                    ("target", "Target reached"),
                    ("suspended", "Suspended for time"),
                    ("default", "Default"),
                ],
                max_length=10,
                verbose_name="how it ended",
            ),
        ),
        migrations.AlterField(
            model_name="tablematch",
            name="event",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="matches",
                to="events.event",
                verbose_name="event",
            ),
        ),
        migrations.AlterField(
            model_name="tablematch",
            name="offender",
            field=models.CharField(blank=True, max_length=1, verbose_name="offending pair"),
        ),
        migrations.AlterField(
            model_name="tablematch",
            name="round",
            field=models.PositiveSmallIntegerField(verbose_name="round"),
        ),
        migrations.AlterField(
            model_name="tablematch",
            name="score_a",
            field=models.PositiveIntegerField(default=0, verbose_name="score of pair A"),
        ),
        migrations.AlterField(
            model_name="tablematch",
            name="score_b",
            field=models.PositiveIntegerField(default=0, verbose_name="score of pair B"),
        ),
        migrations.AlterField(
            model_name="tablematch",
            name="scorekeeper",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="events.eventplayer",
                verbose_name="scorekeeper",
            ),
        ),
        migrations.AlterField(
            model_name="tablematch",
            name="state",
            field=models.CharField(
                choices=[
                    ("playing", "Playing"),
                    ("awaiting", "Waiting for the organizer"),
                    ("closed", "Closed"),
                ],
                default="playing",
                max_length=10,
                verbose_name="state",
            ),
        ),
        migrations.AlterField(
            model_name="tablematch",
            name="table",
            field=models.PositiveSmallIntegerField(verbose_name="table"),
        ),
        migrations.AlterField(
            model_name="tablenote",
            name="by",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="by",
            ),
        ),
        migrations.AlterField(
            model_name="tablenote",
            name="created_at",
            field=models.DateTimeField(auto_now_add=True, verbose_name="created at"),
        ),
        migrations.AlterField(
            model_name="tablenote",
            name="kind",
            field=models.CharField(
                choices=[
                    ("called", "The organizer was called"),
                    ("default_rejected", "A default claim was rejected"),
                    ("default_accepted", "A default claim was accepted; waiting for the organizer"),
                ],
                max_length=20,
                verbose_name="kind",
            ),
        ),
        migrations.AlterField(
            model_name="tablenote",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="notes",
                to="events.tablematch",
                verbose_name="match",
            ),
        ),
    ]
