from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0014_scans_to_app"),
    ]

    operations = [
        # the print jobs moved to their app (scoring.printing) with their table
        # (db_table): only the state leaves
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(
                    name="PrintJob",
                ),
            ],
            database_operations=[],
        ),
    ]
