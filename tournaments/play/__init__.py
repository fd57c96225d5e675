"""A player's seat and the digital tables: one wing.

Each module of the wing is imported by its own name; this face imports
nothing, so loading one of them (the model, the links) never pulls in the
rest. What lives where is listed in the README ("Where things live").
"""
