import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


OLD, NEW = "tournaments", "play"
MODELS = ['seatlink']


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
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # the table exists (made in the tournaments app, kept by db_table): only the state moves here
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='SeatLink',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(max_length=40, unique=True)),
                        ('issued_at', models.DateTimeField(auto_now_add=True)),
                        ('revoked_at', models.DateTimeField(blank=True, null=True)),
                        ('issued_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seat_links', to='tournaments.player')),
                        ('revoked_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seat_links', to='tournaments.round')),
                    ],
                    options={
                        'db_table': 'tournaments_seatlink',
                        'ordering': ['issued_at', 'pk'],
                        'constraints': [models.UniqueConstraint(condition=models.Q(('revoked_at__isnull', True)), fields=('round', 'player'), name='seat_link_one_active')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
