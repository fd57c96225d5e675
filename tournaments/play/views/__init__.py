"""The seat wing's views: a player's seat page (``seat``) and its play
partial, moves and clock (``play``), the page of a link that can't act
(``_refusal``, shared by both), digital tables seen from outside a seat
(``watch``), the organizer's seat links (``links``)."""
