"""A hand's end is stored in the engine's words: the tied block was "tied_block" here and
"tied-block" in the engine and the records; one vocabulary now, so the stored rows follow."""

from __future__ import annotations

from typing import Any

from django.db import migrations

RENAMED = {"tied_block": "tied-block"}


def forwards(apps: Any, schema_editor: Any) -> None:
    hand_record = apps.get_model("events", "HandRecord")
    for old, new in RENAMED.items():
        hand_record.objects.filter(end=old).update(end=new)


def backwards(apps: Any, schema_editor: Any) -> None:
    hand_record = apps.get_model("events", "HandRecord")
    for old, new in RENAMED.items():
        hand_record.objects.filter(end=new).update(end=old)


class Migration(migrations.Migration):
    dependencies = [("events", "0002_table_notes")]

    operations = [migrations.RunPython(forwards, backwards)]
