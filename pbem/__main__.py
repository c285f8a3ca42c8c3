"""Allow ``python -m pbem``."""

from pbem.start import main

main()
