import sys

from gshare_operator.main import main

sys.exit(main())
