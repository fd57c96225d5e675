import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


OLD, NEW = "tournaments", "finals"
MODELS = ['finalstage']


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
        ('tournaments', '0023_wings_to_apps'),
    ]

    operations = [
        # the table exists (made in the tournaments app, kept by db_table): only the state moves here
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='FinalStage',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('format', models.CharField(choices=[('none', 'No final: the standings after the last round are final'), ('table', 'One final table of the best players'), ('semis', 'Semi-final tables, their best go on to a final table')], default='none', max_length=10, verbose_name='final stage')),
                        ('final_size', models.PositiveSmallIntegerField(default=4, validators=[django.core.validators.MinValueValidator(2), django.core.validators.MaxValueValidator(6)], verbose_name='players at the final table')),
                        ('semi_tables', models.PositiveSmallIntegerField(default=2, validators=[django.core.validators.MinValueValidator(2), django.core.validators.MaxValueValidator(8)], verbose_name='semi-final tables')),
                        ('semi_size', models.PositiveSmallIntegerField(default=4, validators=[django.core.validators.MinValueValidator(2), django.core.validators.MaxValueValidator(6)], verbose_name='players at each semi-final table')),
                        ('advance', models.PositiveSmallIntegerField(default=2, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(5)], verbose_name='go on from each semi-final table')),
                        ('minutes', models.PositiveSmallIntegerField(default=45, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(600)], verbose_name='round length of the final stage (minutes)')),
                        ('mode', models.CharField(choices=[('replace', "The final decides the finalists' places"), ('add', "The final's points are added to the finalists' points")], default='replace', max_length=10, verbose_name="the final's result")),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='final_stage', to='tournaments.tournament')),
                    ],
                    options={
                        'verbose_name': 'final stage',
                        'verbose_name_plural': 'final stages',
                        'db_table': 'tournaments_finalstage',
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
