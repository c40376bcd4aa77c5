"""A battle exported as JSON Lines: the format, one pass over a run of its lines, and the
offline verification of a file, cut and scanned by several processes.
"""

__all__: list[str] = []
