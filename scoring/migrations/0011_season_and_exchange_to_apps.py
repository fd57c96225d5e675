from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0010_import_jobs"),
    ]

    operations = [
        # the models moved to their apps with their tables (db_table): only the state leaves
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="series",
                    name="owner",
                ),
                migrations.RemoveField(
                    model_name="series",
                    name="tournaments",
                ),
                migrations.DeleteModel(
                    name="ImportJob",
                ),
                migrations.DeleteModel(
                    name="Series",
                ),
            ],
            database_operations=[],
        ),
    ]
