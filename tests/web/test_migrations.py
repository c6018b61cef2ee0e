"""Every change to a model has its migration in the repository.

Why: a model changed without its migration works in the tests (the test database is built from the
models' migrations plus nothing), then fails on a deployed database, or the next developer's
`makemigrations` writes a migration nobody reviewed. Renaming the stored log's model (`LogRow`)
was such a change.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_lacks_its_migration() -> None:
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as missing:  # `--check` exits non-zero when a migration is missing
        pytest.fail(f"a model changed without its migration:\n{out.getvalue()}\n(exit {missing.code})")
