import django.db.models.deletion
import uuid
from django.conf import settings
from django.db import migrations, models


OLD, NEW = "tournaments", "mirror"
MODELS = ['publishingkey', 'mirroredtournament', 'mirrorsection', 'mirrorlink', 'mirrorpublication', 'receivedpublication', 'publisherconfirmation']


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
                    name='MirroredTournament',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.UUIDField()),
                        ('version', models.BigIntegerField(default=0)),
                        ('hashes', models.JSONField(default=dict)),
                        ('applied_at', models.DateTimeField(blank=True, null=True)),
                        ('publications', models.PositiveIntegerField(default=0)),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='mirrored_from', to='tournaments.tournament')),
                    ],
                    options={
                        'db_table': 'tournaments_mirroredtournament',
                    },
                ),
                migrations.CreateModel(
                    name='MirrorLink',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('site_url', models.URLField(max_length=300, verbose_name='online site')),
                        ('key', models.CharField(max_length=100)),
                        ('connected_at', models.DateTimeField(blank=True, null=True)),
                        ('online_user', models.CharField(blank=True, default='', max_length=150)),
                        ('owner', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='mirror_link', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'tournaments_mirrorlink',
                    },
                ),
                migrations.CreateModel(
                    name='MirrorPublication',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.UUIDField(default=uuid.uuid4, editable=False)),
                        ('active', models.BooleanField(default=True)),
                        ('version', models.BigIntegerField(default=1)),
                        ('published_version', models.BigIntegerField(default=0)),
                        ('published_at', models.DateTimeField(blank=True, null=True)),
                        ('acked_hashes', models.JSONField(blank=True, default=dict)),
                        ('online_url', models.CharField(blank=True, default='', max_length=400)),
                        ('offline_since', models.DateTimeField(blank=True, null=True)),
                        ('last_error', models.TextField(blank=True, default='')),
                        ('attempts', models.PositiveIntegerField(default=0)),
                        ('next_try_at', models.DateTimeField(blank=True, null=True)),
                        ('entries_from', models.PositiveIntegerField(blank=True, null=True)),
                        ('fetched', models.JSONField(blank=True, default=dict)),
                        ('pending_url', models.CharField(blank=True, default='', max_length=400)),
                        ('pending_version', models.BigIntegerField(default=0)),
                        ('link', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='publications', to='mirror.mirrorlink')),
                        ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='mirror_publication', to='tournaments.tournament')),
                    ],
                    options={
                        'db_table': 'tournaments_mirrorpublication',
                    },
                ),
                migrations.CreateModel(
                    name='MirrorSection',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=20)),
                        ('content', models.JSONField()),
                        ('mirror', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='stored', to='mirror.mirroredtournament')),
                    ],
                    options={
                        'db_table': 'tournaments_mirrorsection',
                    },
                ),
                migrations.CreateModel(
                    name='PublisherConfirmation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('email', models.EmailField(blank=True, default='', max_length=254, verbose_name='mail address')),
                        ('requested_at', models.DateTimeField(blank=True, null=True)),
                        ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                        ('via', models.CharField(blank=True, default='', max_length=10)),
                        ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='publisher_confirmation', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'tournaments_publisherconfirmation',
                    },
                ),
                migrations.CreateModel(
                    name='PublishingKey',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(blank=True, default='', max_length=80, verbose_name='name')),
                        ('prefix', models.CharField(max_length=12)),
                        ('digest', models.CharField(max_length=64, unique=True)),
                        ('scope', models.CharField(default='publish registrations', max_length=40)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('last_used_at', models.DateTimeField(blank=True, null=True)),
                        ('revoked_at', models.DateTimeField(blank=True, null=True)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='publishing_keys', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'tournaments_publishingkey',
                        'ordering': ['-created_at', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='ReceivedPublication',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('body', models.BinaryField(default=b'')),
                        ('status', models.CharField(default='queued', max_length=10)),
                        ('received_at', models.DateTimeField(auto_now_add=True)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('attempts', models.PositiveSmallIntegerField(default=0)),
                        ('done_at', models.DateTimeField(blank=True, null=True)),
                        ('answer_status', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('answer', models.JSONField(blank=True, default=dict)),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'tournaments_receivedpublication',
                    },
                ),
                migrations.AddConstraint(
                    model_name='mirroredtournament',
                    constraint=models.UniqueConstraint(fields=('owner', 'source'), name='mirrored_owner_source'),
                ),
                migrations.AddConstraint(
                    model_name='mirrorsection',
                    constraint=models.UniqueConstraint(fields=('mirror', 'name'), name='mirror_section_unique'),
                ),
                migrations.AddIndex(
                    model_name='receivedpublication',
                    index=models.Index(fields=['status', 'received_at'], name='received_pub_status'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
