"""The tests were written for the fast certificates: this test process, and every process it starts (the CLI's, a
sweep's workers), plays them where a door's `net` is not given (`MUST_DEFAULT_NET=fast`). The tests of the default
itself set it (`net_by_default`) or clear the variable, and README's examples run with the package's own default."""
import os
os.environ['MUST_DEFAULT_NET'] = 'fast'
