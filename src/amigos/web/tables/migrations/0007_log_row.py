# The stored log's model is named for what it holds, one row per log entry (it was TableEvent, a
# name that clashed with the table's inputs and Recreo's events). Its database table is renamed
# with it (tables_tableevent to tables_logrow); the rows are kept as they are.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_expert_level"),
    ]

    operations = [
        migrations.RenameModel(old_name="TableEvent", new_name="LogRow"),
        migrations.AlterModelOptions(
            name="logrow",
            options={"ordering": ("table", "version"), "verbose_name": "log row", "verbose_name_plural": "log rows"},
        ),
        migrations.AlterField(
            model_name="logrow",
            name="table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="log_rows",
                to="tables.table",
                verbose_name="table",
            ),
        ),
    ]
