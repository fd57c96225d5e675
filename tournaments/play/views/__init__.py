"""The seat wing's views: a player's seat (``seat``), digital tables seen
from outside a seat (``watch``), the organizer's seat links (``links``)."""
