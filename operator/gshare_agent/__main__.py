import sys

from gshare_agent.main import main

sys.exit(main())
