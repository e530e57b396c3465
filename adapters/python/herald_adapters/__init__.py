"""herald's adapters: run a reward written for verl, TRL or as a plain function, unchanged, as a
herald reward command (one JSON request per stdin line, one answer per stdout line).

Standard library only, so `python3 -m herald_adapters.X` works in any Python 3.9+ that herald
starts, with or without the training framework installed.
"""
