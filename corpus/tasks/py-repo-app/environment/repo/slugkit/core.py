import re
import unicodedata


def slugify(text: str, sep: str = "-", max_length: int | None = None) -> str:
    """Lower-case ASCII slug of ``text``: accents are dropped, every run of characters that are
    not ASCII letters or digits becomes one ``sep``, and the slug never starts or ends with
    ``sep``. With ``max_length``, the slug is cut to at most that many characters (and again
    never ends with ``sep``)."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = text.lower()
    text = re.sub(r"[^a-z0-9]", sep, text)
    if max_length is not None:
        text = text[:max_length]
    return text
