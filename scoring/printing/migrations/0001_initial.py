import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


OLD, NEW = "scoring", "printing"
MODELS = ["printjob"]


def move_content_types(apps, schema_editor, source=OLD, target=NEW):
    """The model's content type follows it (same id), so the admin's log
    entries and the permissions stay its own."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not content_type.objects.filter(app_label=target, model=model).exists():
            content_type.objects.filter(app_label=source, model=model).update(app_label=target)


def move_content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, source=NEW, target=OLD)


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("scoring", "0015_printing_to_app"),
        ('tournaments', '0025_scans_at_once'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # the table exists (made in the scoring app, kept by db_table): only the state moves here
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PrintJob',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('at', models.DateTimeField(auto_now_add=True)),
                        ('kind', models.CharField(max_length=30)),
                        ('round_number', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('status', models.CharField(choices=[('queued', 'queued'), ('running', 'rendering'), ('done', 'ready'), ('failed', 'failed')], default='queued', max_length=20)),
                        ('done', models.PositiveIntegerField(default=0)),
                        ('total', models.PositiveIntegerField(default=0)),
                        ('file', models.CharField(blank=True, max_length=500)),
                        ('error', models.CharField(blank=True, max_length=500)),
                        ('language', models.CharField(blank=True, max_length=10)),
                        ('origin', models.CharField(blank=True, max_length=200)),
                        ('attempts', models.PositiveSmallIntegerField(default=0)),
                        ('alive_at', models.DateTimeField(blank=True, null=True)),
                        ('requeued_at', models.DateTimeField(blank=True, null=True)),
                        ('by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='print_jobs', to='tournaments.tournament')),
                    ],
                    options={
                        'db_table': 'scoring_printjob',
                        'ordering': ['-at'],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
