"""Branch and bound over the triangle net's members in the labelled game's DP: does it cut the DP's correlations?
A k-d cell of members is bounded from above, on nondecreasing values, by its envelope kernel (at every loss the
largest upper-tail mass of its members), so a cell whose bound cannot raise the step's value by more than a relative
tau need not be opened (and its bound, an upper bound, stands in for it). WOR at the DP-SGD size (60,000 records,
batch 256, 2,350 steps), sigma = 2.62, the quick setting: the DP that `account(net=True, **QUICK_NET.keywords())`
plays (captured), replayed in full and by branch and bound; per tau the delta at the account's eps, its rise over the
full DP's, and the correlations a step (the full DP: 367).

    python research/tight_default/bound_tree.py > research/tight_default/bound_tree_out.txt
"""
import time, math, numpy as np, scipy.fft as sfft
from must_nbdev.core.sampling import scheme_at
from must_nbdev.accounting.account import account
from must_nbdev.accounting import triangle_certificate as TC
from must_nbdev.accounting.upper_dp import upper_kernels
from must_nbdev.accounting.adaptive import dp_plan, fft_round_off
from must_nbdev.accounting.compose import UNIT_ROUNDOFF

captured, play = [], TC.upper_game_dp
TC.upper_game_dp = lambda *a, **k: captured.append((a, k)) or play(*a, **k)
r0 = account(scheme_at('wor', 60000, 256, b=6000), sigma=2.62, steps=2350, delta=1e-5, net=True,
             **TC.QUICK_NET.keywords())
print(f"account: certified eps {r0.upper:.6g}, attack {r0.lower:.6g}", flush=True)
TC.upper_game_dp = play
LEAF, ABS = 1, 1e-20
args, kw = captured[-1]
groups, k, e0, span, h, window, max_bins = args
null, left = kw.get('null', 0.0), kw.get('left', 0.0)
assert len(groups) == 1 and not kw.get('more') and not kw.get('whole')
pi, alts = groups[0]
assert len(alts) == 2 and len(alts[0]) == 1
P = dp_plan(window, k, e0, span, h); lo, hi = P['lo'], P['hi']
K, infs, a, b = upper_kernels(tuple(p for alt in alts for p in alt), k)
KL, infL, KM, infM = K[0], infs[0], K[1:], infs[1:]
nm = len(KM)
# k-d tree of members over their tails (feature: log tail masses at a few points)
T = np.cumsum(KM[:, ::-1], axis=1)[:, ::-1] + infM[:, None]          # T[j, x] = mass at and above x
feat = np.log(np.maximum(T[:, ::max(1, T.shape[1] // 16)], 1e-300))
nodes = []  # (members, children)
def build(idx):
    i = len(nodes); nodes.append(None)
    if len(idx) <= LEAF: nodes[i] = (idx, ()); return i
    f = feat[idx]; d = int(np.argmax(f.max(0) - f.min(0))); o = idx[np.argsort(f[:, d], kind='stable')]
    half = len(o) // 2
    nodes[i] = (idx, (build(o[:half]), build(o[half:]))); return i
root = build(np.arange(nm))
def env(idx):
    TE = T[idx].max(axis=0); ie = infM[idx].max()
    KE = TE - np.append(TE[1:], ie)
    return np.maximum(KE, 0.0), ie
ENV = [env(n[0]) if len(n[0]) > 1 else (KM[n[0][0]], infM[n[0][0]]) for n in nodes]
u = float(UNIT_ROUNDOFF['double'])
s = np.arange(lo[k], hi[k] + 1) * h
V0 = np.minimum(np.maximum(-np.expm1(e0 - s) + 4 * u * (1 + abs(e0) + np.abs(s)), 0.0), 1.0)

def run(bb, tau):
    V, spectra, calls, t0, act = V0.copy(), {}, [], time.perf_counter(), set()
    for t in range(k - 1, -1, -1):
        read = lambda idx: np.where(idx > hi[t + 1], 1.0, V[np.clip(idx - lo[t + 1], 0, len(V) - 1)])
        n_out = hi[t] - lo[t] + 1
        E = np.maximum.accumulate(read(np.arange(lo[t] + a, hi[t] + b + 1)))
        r = sfft.next_fast_len(len(E), real=True)
        if r not in spectra: spectra.clear(); spectra[r] = {}
        sp = spectra[r]
        def corr(key, row, inf):
            if key not in sp: sp[key] = sfft.rfft(row[::-1], r)
            return sfft.irfft(FE * sp[key], r)[b - a:b - a + n_out] + inf
        FE = sfft.rfft(E, r)
        lab = corr('L', KL, infL); n = 1
        if not bb:
            vals = np.array([corr(j, KM[j], infM[j]) for j in range(nm)]); n += nm
            best = vals.max(axis=0)
        else:
            best = np.full(n_out, -np.inf)
            for j in act: best = np.maximum(best, corr(('n', j), *ENV[j])); n += 1
            done, bounds, stack = set(act), [], [root]
            while stack:
                i = stack.pop(); mem, ch = nodes[i]
                if i in done: continue
                B = corr(('n', i), *ENV[i]); n += 1
                if not ch: best = np.maximum(best, B); done.add(i); continue
                cap = np.minimum(lab, B)
                if np.all((best >= lab) | (cap <= best * (1 + tau) + ABS)): bounds.append(B); continue
                stack += list(ch)
            leaves_best = best.copy()
            for B in bounds: best = np.maximum(best, B)
            # active: leaves that attain the max somewhere that matters (best < lab)
            act = set()
            # recompute which leaves won: keep those whose value equals leaves_best somewhere
            for i in done:
                if not nodes[i][1]:
                    act.add(i)
            act = {i for i in act if np.any((corr(('n', i), *ENV[i]) >= leaves_best) & (leaves_best < lab))}
        e = fft_round_off(u, r, math.sqrt(float(E @ E)), float(K.sum(axis=1).max() + infs.max()))
        V = np.minimum(pi * np.minimum(lab, best) + null * read(np.arange(lo[t], hi[t] + 1)) + left + pi * e, 1.0)
        calls.append(n)
    j = -np.arange(span + 1) - lo[0]
    vals = np.where(j >= len(V), 1.0, V[np.clip(j, 0, len(V) - 1)])
    return vals, np.array(calls), time.perf_counter() - t0

full, cf, tf = run(False, 0.0)
print(f"full DP: delta {full[0]:.8g}, {cf.mean():.1f} correlations a step, {tf:.1f} s", flush=True)
for tau in (1e-7, 1e-3, 1e-2):
    bbv, cb, tb = run(True, tau)
    print(f"tau {tau:g}: delta {bbv[0]:.8g} ({bbv[0] / full[0] - 1:+.3g} relative), correlations a step: mean "
          f"{cb.mean():.1f}, the run's first 100 steps {cb[::-1][:100].mean():.1f}, its last 100 {cb[::-1][-100:].mean():.1f}; "
          f"{tb:.1f} s", flush=True)
