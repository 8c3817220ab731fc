"""A cover of the triangles that is fine only near the arc s² + t² = 4 (where the third side reaches 2), coarse
elsewhere: every coarse cell of side `coarse` that meets the band lo <= s² + t² <= hi is split into cells of side `fine`.
Each cell gets the member (A_max, s1, t1) of accounting/08_unlabelled_net (Lemma T), dominated members dropped.
`python arc_cover.py SCHEME SIZE COARSE FINE LO HI [FAMILY]` plays one family over it (as unlabelled_net.py does);
`python arc_cover.py count COARSE FINE LO HI` only counts the members.
LO = HI = -1 selects the lens s + t >= 2, s² + t² <= 4 instead of the band (where the third side is 2 and rounding s, t
up costs in u, u' alone); -2 the small triangles s + t < 2; -3 the cells beyond the band (s² + t² > 4.8)."""
import math, sys, time
import numpy as np
import must_nbdev.accounting.unlabelled_net as un

def arc_cover(coarse, fine, lo, hi):
    rows = []
    k = round(2 / coarse)
    for i in range(k):
        for j in range(k):
            s0, t0 = i * coarse, j * coarse
            s1, t1 = min(2.0, s0 + coarse), min(2.0, t0 + coarse)
            near = (s1 * s1 + t1 * t1 >= lo and s0 * s0 + t0 * t0 <= hi if lo >= 0      # the cell meets the band
                    else s1 + t1 >= 2 and s0 * s0 + t0 * t0 <= 4 if lo == -1               # ... or the lens
                    else s0 + t0 < 2 if lo == -2 else s1 * s1 + t1 * t1 > 4.8)            # ... small, or beyond
            step = fine if near else coarse
            for a0 in np.arange(s0, s1 - 1e-12, step):
                for b0 in np.arange(t0, t1 - 1e-12, step):
                    a1, b1 = min(s1, a0 + step), min(t1, b0 + step)
                    if abs(a1 - 2) < 1e-9: a1 = 2.0
                    if abs(b1 - 2) < 1e-9: b1 = 2.0
                    rows.append((min(2.0, un.cell_side(a0, a1, b0, b1) + 1e-9), a1, b1))
    rows = np.array(rows)
    above = (rows[None] >= rows[:, None]).all(2) & (rows[None] > rows[:, None]).any(2)
    return rows[~above.any(1)]

if __name__ == '__main__':
    if sys.argv[1] == 'count':
        c = arc_cover(*map(float, sys.argv[2:6])); print(len(c), 'members'); sys.exit()
    name, size = sys.argv[1], sys.argv[2]
    coarse, fine, lo, hi = map(float, sys.argv[3:7])
    family = sys.argv[7] if len(sys.argv) > 7 else 'y'
    cover = arc_cover(coarse, fine, lo, hi)
    # sanity: random triangles in the unit disc are covered
    rng = np.random.default_rng(0); N = 200_000
    rad = np.sqrt(rng.random((3, N))); rad[:, :N // 3] = 1.0
    ang = rng.random((3, N)) * 2 * np.pi
    x, xp, z = np.stack([rad * np.cos(ang), rad * np.sin(ang)], axis=-1)
    sides = np.stack([np.linalg.norm(x - xp, axis=1), np.linalg.norm(x - z, axis=1), np.linalg.norm(xp - z, axis=1)], 1)
    cov = np.zeros(N, bool)
    for m in cover: cov |= (sides <= m).all(1)
    assert cov.all(), (~cov).sum()
    un.triangle_cover = lambda cells=None: cover          # the module looks it up at call time
    sys.argv = ['unlabelled_net.py', name, size, '99', family]   # (cells: a cache key only)
    exec(open('unlabelled_net.py').read())
