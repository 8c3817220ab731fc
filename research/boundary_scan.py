"""Scan of the boundary ∂K (NOT a certificate). Lemma A3b: the maximum of Φ_α over K is attained on ∂K (scaling the
triangle {y, a, b} towards y is a post-processing). ∂K = triangles whose minimal enclosing circle has radius exactly 1:
(a) two points antipodal on the unit circle and the third anywhere in the disk (three role assignments), or
(b) all three on the unit circle. Units: clip norm 1; noise σ. Also the K_2 (brief's domain) equilateral counterexample."""
import json, math, time
import numpy as np
from rdp_wor import _psi_mean, nodes

def G_batch(alpha, gamma, sigma, Y, A, B, Z, W):
    "F − 1 for components with null y, P-point a, Q-point b (rows, R^2, clip units)."
    U, V = (A - Y) / sigma, (B - Y) / sigma
    return np.concatenate([_psi_mean(alpha, gamma, U[i:i + 64], V[i:i + 64], Z, W) for i in range(0, len(U), 64)])

def scan(alpha, gamma, sigma, n_ang=36, n_r=8):
    t0 = time.time(); c = 2 / sigma
    ext = 12 + alpha * c; Z, W = nodes(2, [-ext, -ext], [ext, ext], 0.12); k = W > 1e-300; Z, W = Z[k], W[k]
    ref = G_batch(alpha, gamma, sigma, np.array([[-1.0, 0]]), np.array([[1.0, 0]]), np.array([[-1.0, 0]]), Z, W)[0]
    th = np.linspace(0, 2 * np.pi, n_ang, endpoint=False)
    T1, T2 = np.meshgrid(th, th, indexing='ij'); T1, T2 = T1.ravel(), T2.ravel()
    circ = lambda t: np.stack([np.cos(t), np.sin(t)], 1)
    Yb, Ab, Bb = circ(0 * T1), circ(T1), circ(T2)                       # (b) all on the circle
    r = np.linspace(0, 1, n_r + 1)[1:] if n_r else np.array([1.0]); R_, TH = np.meshgrid(np.r_[0, r], th, indexing='ij')
    w = np.stack([R_.ravel() * np.cos(TH.ravel()), R_.ravel() * np.sin(TH.ravel())], 1)
    e, me = np.tile([1.0, 0], (len(w), 1)), np.tile([-1.0, 0], (len(w), 1))
    cases = {'b: all on circle': (Yb, Ab, Bb), 'a: {a,b} antipodal, y inside': (w, e, me),
             'a: {y,a} antipodal, b inside': (me, e, w), 'a: {y,b} antipodal, a inside': (me, w, e)}
    out = dict(alpha=alpha, gamma=gamma, sigma=sigma)
    for name, (Y, A, B) in cases.items():
        g = G_batch(alpha, gamma, sigma, Y, A, B, Z, W) / ref
        i = int(np.argmax(g)); out[name] = dict(max_ratio=float(g[i]), y=Y[i].round(3).tolist(), a=A[i].round(3).tolist(), b=B[i].round(3).tolist())
    out['seconds'] = round(time.time() - t0, 1)
    return out

def equilateral_K2(alpha, gamma, sigma):
    "The brief's K_2 = {|u|, |v|, |u−v| ≤ 2}: the equilateral triangle of side 2 (not realisable) vs the displacing point."
    c = 2 / sigma; ext = 12 + alpha * c; Z, W = nodes(2, [-ext, -ext], [ext, ext], 0.12)
    eq = _psi_mean(alpha, gamma, np.array([[c / 2, c * math.sqrt(3) / 2]]), np.array([[c, 0.0]]), Z, W)[0]
    ref = _psi_mean(alpha, gamma, np.array([[c, 0.0]]), np.array([[0.0, 0.0]]), Z, W)[0]
    return dict(domain='K_2 (brief)', config='equilateral side 2', alpha=alpha, gamma=gamma, sigma=sigma,
                ratio_F_minus_1=float(eq / ref), ratio_renyi=float(math.log1p(eq) / math.log1p(ref)))

if __name__ == '__main__':
    for g, s, a in [(0.02, 4.0, 2), (0.02, 4.0, 9.5), (0.5, 1.0, 2)]:
        print(json.dumps(equilateral_K2(a, g, s)), flush=True)
    for g, s, a in [(0.02, 4.0, 9.5), (256 / 60000, 2.62, 17.5), (256 / 60000, 0.8, 1.35), (256 / 60000, 1.1, 2.75), (0.5, 1.0, 3)]:
        print(json.dumps(scan(a, g, s)), flush=True)
