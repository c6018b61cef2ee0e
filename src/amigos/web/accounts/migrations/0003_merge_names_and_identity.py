"""Joins two migrations written side by side: the translated field names and the identity keys."""

from __future__ import annotations

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_identity_keys_and_limits"),
        ("accounts", "0002_verbose_names"),
    ]

    operations = [migrations.RunPython(migrations.RunPython.noop, migrations.RunPython.noop)]
