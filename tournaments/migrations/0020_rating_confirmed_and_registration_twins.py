"""A rating is the organizer's word or not yet (``Player.rating_confirmed``);
a registration knows whether it created its player (``owns_player``) and
which organizer's entry it possibly is (``twin``).

Existing rows: a player's rating counts as confirmed unless it is the very
number a player typed on the registration form (a registration not added by
the organizer, or changed through its link afterwards); a registration owns
its player unless the player was there before it (joined to an entry the
organizer made)."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Exists, F, OuterRef


def mark_existing(apps, schema_editor):
    Registration = apps.get_model("tournaments", "Registration")
    Event = apps.get_model("tournaments", "RegistrationEvent")
    Player = apps.get_model("tournaments", "Player")
    added = Event.objects.filter(registration=OuterRef("pk"), kind="added")
    changed_by_player = Event.objects.filter(
        registration=OuterRef("pk"), kind="changed", by__isnull=True
    )
    Registration.objects.filter(Exists(added)).exclude(Exists(changed_by_player)).update(
        rating_confirmed=True
    )
    Registration.objects.filter(
        player__isnull=False, player__created_at__lt=F("created_at")
    ).update(owns_player=False)
    typed = Registration.objects.filter(
        player=OuterRef("pk"), rating_confirmed=False, rating=OuterRef("rating")
    )
    Player.objects.filter(rating__isnull=False).filter(Exists(typed)).update(rating_confirmed=False)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0019_mirror"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="rating_confirmed",
            field=models.BooleanField(
                default=True,
                help_text="Only a confirmed rating breaks a tie or seeds round 1 by rating.",
                verbose_name="rating confirmed",
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="owns_player",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="registration",
            name="rating_confirmed",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="registration",
            name="twin",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="tournaments.player",
            ),
        ),
        migrations.AlterField(
            model_name="registrationevent",
            name="kind",
            field=models.CharField(
                choices=[
                    ("registered", "registered"),
                    ("waitlisted", "joined the waitlist"),
                    ("changed", "changed"),
                    ("withdrawn", "withdrew"),
                    ("promoted", "moved up from the waitlist"),
                    ("confirmed", "confirmed by hand"),
                    ("rejected", "rejected"),
                    ("moved", "moved on the waitlist"),
                    ("added", "added by hand"),
                    ("link_reissued", "personal link replaced"),
                    ("checked_in", "checked in"),
                    ("present", "present at the door (waitlist)"),
                    ("no_show", "dropped: did not come"),
                    ("left", "left the tournament"),
                    ("twin", "possibly the same person as an entry of the organizer"),
                    ("joined", "joined to the organizer's entry"),
                    ("kept_apart", "kept apart: a player of its own"),
                ],
                max_length=20,
            ),
        ),
        migrations.RunPython(mark_existing, migrations.RunPython.noop),
    ]
