"""Comparison keys for addresses and names, verified addresses, throttle by account, rate limits.

The keys are added empty, filled from the existing rows with the same functions the model uses,
and only then made unique, so the migration works on a database that already has players.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from amigos.web.accounts.identity import identifier_key, skeleton


def fill_keys(apps, schema_editor):  # type: ignore[no-untyped-def]
    User = apps.get_model("accounts", "User")
    for user in User.objects.all().iterator():
        user.email_key = identifier_key(user.email)
        user.name_key = identifier_key(user.display_name)
        user.email_skeleton = skeleton(user.email)
        user.name_skeleton = skeleton(user.display_name)
        user.save(update_fields=["email_key", "name_key", "email_skeleton", "name_skeleton"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="email_verified_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="e-mail address verified"),
        ),
        migrations.AddField(
            model_name="user",
            name="email_key",
            field=models.CharField(default="", editable=False, max_length=254),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="user",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=254),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="user",
            name="email_skeleton",
            field=models.CharField(default="", editable=False, max_length=254),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="user",
            name="name_skeleton",
            field=models.CharField(default="", editable=False, max_length=254),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="email_key",
            field=models.CharField(editable=False, max_length=254, unique=True),
        ),
        migrations.AlterField(
            model_name="user",
            name="name_key",
            field=models.CharField(editable=False, max_length=254, unique=True),
        ),
        migrations.AlterField(
            model_name="user",
            name="email_skeleton",
            field=models.CharField(db_index=True, editable=False, max_length=254),
        ),
        migrations.AlterField(
            model_name="user",
            name="name_skeleton",
            field=models.CharField(db_index=True, editable=False, max_length=254),
        ),
        migrations.AddField(
            model_name="signinattempt",
            name="account",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="sign_in_attempts",
                to=settings.AUTH_USER_MODEL,
                verbose_name="account",
            ),
        ),
        migrations.CreateModel(
            name="LimitedAction",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("sign_up", "Sign-up"),
                            ("verify_mail", "Verification e-mail"),
                            ("reset_mail", "Password reset e-mail"),
                        ],
                        max_length=20,
                        verbose_name="kind",
                    ),
                ),
                ("key", models.CharField(max_length=254, verbose_name="counted for")),
                ("at", models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name="at")),
            ],
            options={
                "verbose_name": "limited action",
                "verbose_name_plural": "limited actions",
                "indexes": [models.Index(fields=["kind", "key", "at"], name="accounts_li_kind_3987e8_idx")],
            },
        ),
    ]
