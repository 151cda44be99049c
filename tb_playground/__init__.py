"""tb_playground: the rules playground and GM dashboard for 20 Below.

Layers, data flowing one way: ``engine`` (pure maths) <- ``models`` (param objects)
<- ``table`` (live combat state) <- ``views`` (Panel components) <- ``apps/``.
"""

import logging

__version__ = "0.1.0"

# The package logs ("tb_playground.*") and leaves the output to the application: serve_setup.py
# prints the records at INFO on the server's console.
logging.getLogger(__name__).addHandler(logging.NullHandler())

from .texts import rules_names, rules_text  # noqa: E402

__all__ = ["__version__", "rules_names", "rules_text"]
