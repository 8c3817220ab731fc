"""A cover of the triangles on a grid uniform in the central angle: side s = 2 sin(θ/2), θ_i = iπ/N (finer in s near 2,
where Lemma T's third side falls steeply), optionally mixed with the uniform grid of spacing CELL (the union of both).
Each cell gets the member (A_max, s1, t1) of accounting/08_unlabelled_net (Lemma T), dominated members dropped.
`python angle_cover.py SCHEME SIZE N [CELL [FAMILY]]` plays one family over it; `python angle_cover.py count N [CELL]`."""
import math, sys
import numpy as np
import must_nbdev.accounting.unlabelled_net as un

def angle_cover(N, cell=0.0):
    g = 2 * np.sin(np.arange(N + 1) * np.pi / N / 2)
    if cell: g = np.union1d(g, np.arange(0, math.ceil(2 / cell - 1e-9) + 1) * cell)
    g = np.unique(np.minimum(np.round(g, 12), 2.0)); g[-1] = 2.0
    rows = np.array([(min(2.0, un.cell_side(s0, s1, t0, t1) + 1e-9), s1, t1)
                     for s0, s1 in zip(g[:-1], g[1:]) for t0, t1 in zip(g[:-1], g[1:])])
    above = (rows[None] >= rows[:, None]).all(2) & (rows[None] > rows[:, None]).any(2)
    return rows[~above.any(1)]

if __name__ == '__main__':
    if sys.argv[1] == 'count':
        print(len(angle_cover(int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 0.0)), 'members'); sys.exit()
    name, size, N = sys.argv[1], sys.argv[2], int(sys.argv[3])
    cell = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    family = sys.argv[5] if len(sys.argv) > 5 else 'y'
    cover = angle_cover(N, cell)
    un.triangle_cover = lambda cells=None: cover          # the module looks it up at call time
    sys.argv = ['unlabelled_net.py', name, size, '99', family]   # (cells: a cache key only)
    exec(open('unlabelled_net.py').read())
