import sys

sys.dont_write_bytecode = True
if "/app" not in sys.path:
    sys.path.insert(0, "/app")
