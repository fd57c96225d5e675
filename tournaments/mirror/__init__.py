"""Follow from home: the laptop at the venue publishes a tournament's public
pages to the club's online site, and fetches the registrations from it.

The same code runs on both sites. Online: publishing keys
(:class:`~tournaments.mirror.models.PublishingKey`), the publications received
(``receive``) applied into a read-only mirrored tournament, and the entries
offered to the laptop. Laptop: the link to the online site
(:class:`~tournaments.mirror.models.MirrorLink`), each published tournament's
state (:class:`~tournaments.mirror.models.MirrorPublication`), the public
snapshot (``snapshot``, pure) and its sending (``publish``, from Celery only).
"""
