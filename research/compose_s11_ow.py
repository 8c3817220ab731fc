from compose_check import run
run('must-ow', 60000, 256, 6000, 1.1, 2350, 1e-5, h=6e-3, smax=24.0)
