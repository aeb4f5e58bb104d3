"""Engine access, hardening, the agent sandbox and workspace snapshots.

Only :mod:`isolation.engine` imports the Docker SDK; everything else here is either pure
(labels, hardening) or talks to the engine through it.
"""
