import sys
from compose_check import run
h = float(sys.argv[1]) if len(sys.argv) > 1 else 4e-3
run('wr', 60000, 256, None, 1.1, 2350, 1e-5, h=h, smax=12.0)
run('must-ow', 60000, 256, 6000, 1.1, 2350, 1e-5, h=h, smax=12.0)
