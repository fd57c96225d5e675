import django.core.validators
import django.db.models.deletion
import tournaments.registrations.models
from django.conf import settings
from django.db import migrations, models


OLD, NEW = "tournaments", "registrations"
MODELS = ['announcement', 'registration', 'registrationevent']


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
                    name='Announcement',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('start_time', models.TimeField(blank=True, null=True, verbose_name='start time')),
                        ('deadline', models.DateTimeField(blank=True, help_text='Registration closes at this moment; empty: open until you close it.', null=True, verbose_name='entry deadline')),
                        ('cap', models.PositiveIntegerField(default=64, help_text='Beyond this number players join the waitlist in order.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='places')),
                        ('note', models.TextField(blank=True, help_text='Entry fee, rules, how to get there: shown on the public page.', max_length=2000, verbose_name='note')),
                        ('public_names', models.BooleanField(default=False, help_text='The public page lists those registered who agreed to it.', verbose_name='list names publicly')),
                        ('open', models.BooleanField(default=True, verbose_name='open for registration')),
                        ('check_in_open', models.BooleanField(default=False, verbose_name='self check-in open')),
                        ('next_position', models.PositiveIntegerField(default=1)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='announcement', to='tournaments.tournament')),
                    ],
                    options={
                        'verbose_name': 'announcement',
                        'db_table': 'tournaments_announcement',
                    },
                ),
                migrations.CreateModel(
                    name='Registration',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(default=tournaments.registrations.models.new_key, editable=False, max_length=32, unique=True)),
                        ('token_hash', models.CharField(max_length=64, unique=True)),
                        ('form_nonce', models.CharField(blank=True, max_length=40, null=True, unique=True)),
                        ('name', models.CharField(max_length=200, verbose_name='name')),
                        ('club', models.CharField(blank=True, max_length=200, verbose_name='club')),
                        ('birth_year', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='birth year')),
                        ('rating', models.IntegerField(blank=True, null=True, verbose_name='rating')),
                        ('rating_confirmed', models.BooleanField(default=False)),
                        ('name_key', models.CharField(default='', editable=False, max_length=400)),
                        ('club_key', models.CharField(default='', editable=False, max_length=400)),
                        ('consent_public', models.BooleanField(default=False, verbose_name='name on the public list')),
                        ('status', models.CharField(choices=[('confirmed', 'confirmed'), ('waitlisted', 'waitlist'), ('withdrawn', 'withdrawn'), ('rejected', 'rejected'), ('no_show', 'did not come')], default='confirmed', max_length=20, verbose_name='status')),
                        ('position', models.PositiveIntegerField(verbose_name='order')),
                        ('present_at', models.DateTimeField(blank=True, null=True)),
                        ('owns_player', models.BooleanField(default=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('person', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='registrations', to='tournaments.person')),
                        ('player', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='registration', to='tournaments.player')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='registrations', to='tournaments.tournament')),
                        ('twin', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournaments.player')),
                    ],
                    options={
                        'verbose_name': 'registration',
                        'verbose_name_plural': 'registrations',
                        'db_table': 'tournaments_registration',
                        'ordering': ['position'],
                    },
                ),
                migrations.CreateModel(
                    name='RegistrationEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('registered', 'registered'), ('waitlisted', 'joined the waitlist'), ('changed', 'changed'), ('withdrawn', 'withdrew'), ('promoted', 'moved up from the waitlist'), ('confirmed', 'confirmed by hand'), ('rejected', 'rejected'), ('moved', 'moved on the waitlist'), ('added', 'added by hand'), ('link_reissued', 'personal link replaced'), ('checked_in', 'checked in'), ('present', 'present at the door (waitlist)'), ('no_show', 'dropped: did not come'), ('left', 'left the tournament'), ('twin', 'possibly the same person as an entry of the organizer'), ('joined', "joined to the organizer's entry"), ('kept_apart', 'kept apart: a player of its own')], max_length=20)),
                        ('detail', models.CharField(blank=True, default='', max_length=300)),
                        ('at', models.DateTimeField(auto_now_add=True)),
                        ('by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('registration', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to='registrations.registration')),
                    ],
                    options={
                        'db_table': 'tournaments_registrationevent',
                        'ordering': ['at', 'pk'],
                    },
                ),
                migrations.AddIndex(
                    model_name='registration',
                    index=models.Index(fields=['tournament', 'name_key'], name='registration_name_key'),
                ),
                migrations.AddIndex(
                    model_name='registration',
                    index=models.Index(fields=['tournament', 'status'], name='registration_status'),
                ),
                migrations.AddConstraint(
                    model_name='registration',
                    constraint=models.UniqueConstraint(fields=('tournament', 'position'), name='registration_position_unique'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
