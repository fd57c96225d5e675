from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0013_scanpage_picked_table"),
    ]

    operations = [
        # the scanned piles moved to their app (scoring.scans) with their tables
        # (db_table): only the state leaves
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="scanpile",
                    name="by",
                ),
                migrations.RemoveField(
                    model_name="scanpile",
                    name="round",
                ),
                migrations.DeleteModel(
                    name="ScanPage",
                ),
                migrations.DeleteModel(
                    name="ScanPile",
                ),
            ],
            database_operations=[],
        ),
    ]
