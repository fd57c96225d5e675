import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


OLD, NEW = "scoring", "scans"
MODELS = ["scanpile", "scanpage"]


def move_content_types(apps, schema_editor, source=OLD, target=NEW):
    """The models' content types follow them (same ids), so the admin's log
    entries and the permissions stay theirs."""
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
        ('scoring', '0014_scans_to_app'),
        ('tournaments', '0025_scans_at_once'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # the tables exist (made in the scoring app, kept by db_table): only the state moves here
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ScanPile',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('at', models.DateTimeField(auto_now_add=True)),
                        ('name', models.CharField(blank=True, max_length=200)),
                        ('status', models.CharField(choices=[('queued', 'waiting'), ('running', 'reading'), ('done', 'read'), ('failed', 'refused')], default='queued', max_length=20)),
                        ('data', models.BinaryField(default=b'')),
                        ('done', models.PositiveIntegerField(default=0)),
                        ('total', models.PositiveIntegerField(default=0)),
                        ('reason', models.CharField(blank=True, max_length=40)),
                        ('language', models.CharField(blank=True, max_length=10)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                        ('by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.round')),
                    ],
                    options={
                        'db_table': 'scoring_scanpile',
                        'ordering': ['-at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='ScanPage',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveIntegerField()),
                        ('outcome', models.CharField(choices=[('stored', 'read'), ('same', 'already there'), ('review', 'to check'), ('refused', 'refused'), ('fixed', 'fixed')], max_length=20)),
                        ('reason', models.CharField(blank=True, max_length=40)),
                        ('problems', models.JSONField(blank=True, default=list)),
                        ('code', models.CharField(blank=True, max_length=100)),
                        ('picked_table', models.PositiveIntegerField(blank=True, null=True)),
                        ('fields', models.JSONField(blank=True, default=dict)),
                        ('image', models.BinaryField(default=b'')),
                        ('straight', models.BooleanField(default=False)),
                        ('seconds', models.FloatField(default=0)),
                        ('submission', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='scans', to='scoring.submission')),
                        ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournaments.table')),
                        ('pile', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pages', to='scans.scanpile')),
                    ],
                    options={
                        'db_table': 'scoring_scanpage',
                        'ordering': ['pile', 'number'],
                        'constraints': [models.UniqueConstraint(fields=('pile', 'number'), name='scan_page_unique')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
