from common import *
q, s, k, eps = 0.02, 4.0, 1000, 1.0
h = account(make_scheme('wor', 10_000, m=200), sigma=s, steps=k, eps=eps, attack=False).h
t = time.time()
base = [c_opt(q, s, h, -1.0), c_opt(q, s, h, 1.0)]
v0, _ = run_dp(base, k, eps, h); print(f"two orientations: {v0:.6e}  ({time.time()-t:.1f}s)", flush=True)
circ = lambda d: np.array([math.cos(math.radians(d)), math.sin(math.radians(d))])
tris = []
for tx in (0, 30, 60, 90, 120, 150):
    for txp in (180 + 30, 180 + 60, 180 + 90, 240 + 60, 330):
        if abs(tx - txp) % 360 < 1e-9: continue
        tris.append((circ(180 + 0) * 0 + circ(txp + 0) * 0 + circ(200), circ(tx), circ(txp)))
# the symmetric families: y on the perpendicular bisector of x, x'
for hgt in (0.25, 0.5, 0.75, 1.0):
    tris.append((np.array([0, hgt]), circ(0), circ(180)))
opts = []
for y, x, xp in tris:
    try: opts.append(tri_opt(y, x, xp, q, s, h))
    except ValueError as e: print(e)
print(f"{len(opts)} triangles built ({time.time()-t:.1f}s)", flush=True)
v1, r1 = run_dp(base + opts, k, eps, h)
print(f"with triangles: {v1:.6e}  ratio {v1/v0:.5f}  ({time.time()-t:.1f}s)", flush=True)
for (y, x, xp), o in zip(tris, opts):
    v, _ = run_dp(base + [o], k, eps, h)
    print(f"{o[1]}: {v:.6e} ratio {v/v0:.5f}", flush=True)
