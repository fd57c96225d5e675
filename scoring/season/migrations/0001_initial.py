import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


OLD, NEW = "scoring", "season"
MODELS = ['series']


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
        ("scoring", "0011_season_and_exchange_to_apps"),
        ('tournaments', '0023_wings_to_apps'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # the table exists (made in the scoring app, kept by db_table): only the state moves here
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Series',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200, verbose_name='name')),
                        ('game', models.CharField(max_length=40, verbose_name='game')),
                        ('scheme', models.CharField(choices=[('placement', 'Placement points by field size'), ('points', 'Tournament points summed'), ('table', 'Fixed table by place')], default='placement', max_length=20, verbose_name='season points')),
                        ('table', models.JSONField(blank=True, default=list, verbose_name='points by place')),
                        ('best', models.PositiveSmallIntegerField(blank=True, help_text="Count only each person's best results (empty: all).", null=True, verbose_name='count the best')),
                        ('minimum', models.PositiveSmallIntegerField(default=0, verbose_name='tournaments needed to be ranked')),
                        ('public', models.BooleanField(default=False, verbose_name='public season page')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='series', to=settings.AUTH_USER_MODEL)),
                        ('tournaments', models.ManyToManyField(blank=True, related_name='series', to='tournaments.tournament', verbose_name='tournaments')),
                    ],
                    options={
                        'verbose_name': 'series',
                        'verbose_name_plural': 'series',
                        'db_table': 'scoring_series',
                        'ordering': ['-created_at'],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
