"""Run-length encoding of strings."""


def encode(text: str) -> str:
    raise NotImplementedError


def decode(encoded: str) -> str:
    raise NotImplementedError
