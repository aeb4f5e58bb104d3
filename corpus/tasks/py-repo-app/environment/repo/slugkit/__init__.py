"""slugkit: turn titles into URL slugs."""

from .core import slugify

__all__ = ["slugify"]
__version__ = "0.3.1"
