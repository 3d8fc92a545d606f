#!/usr/bin/python3
"""The language check and filter's command line (the code: tools/nwbook/lang.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nwbook.lang import main  # noqa: E402

if __name__ == '__main__':
    sys.exit(main(sys.argv))
