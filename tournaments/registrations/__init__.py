"""Players sign up themselves: one wing.

An announcement opens a tournament for registration; a player registers
without an account and keeps a personal link to see, change or withdraw the
registration, to check in at the door and to leave between rounds. Each
module is imported by its own name; this face imports nothing. What lives
where is listed in the README ("Where things live").
"""
