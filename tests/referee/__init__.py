"""An independent referee for match records.

Written from the rule texts alone and never importing ``amigos``: it replays a match record with
plain lists, tuples and dicts, so that agreement between it and ``amigos replay`` means two
separate readings of the rules reached the same result. It also generates random legal records
(steered towards the rare situations) and mutated ones for the corpus tests.
"""
