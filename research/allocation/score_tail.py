"""The score attack's clip (SCORE_TAIL in accounting/13b_allocation_steps) against the exact opposite-gradient pair.

For each clip (in σ above the term's shift) prints the score attack's δ(ε=1) at t = 2, one epoch, σ ∈ {0.7, 1, 2}
(the exact pair's values, from a 2-D quadrature in tests/test_epoch_account.py: 0.5170, 0.2862, 0.0396), and its
ε(1e-5) at (σ=1, t=100, 3 epochs) and (σ=0.685, t=235, 10 epochs). Run: python score_tail.py > score_tail_out.txt
"""
import must_nbdev.accounting.allocation_steps as steps
from must_nbdev.accounting.compose import compose_plds

for tail in (3.0, 4.0, 5.0, 6.0, 8.0):
    steps.SCORE_TAIL = tail
    out = []
    for sigma, t, E, bins in [(0.7, 2, 1, 1 << 16), (1.0, 2, 1, 1 << 16), (2.0, 2, 1, 1 << 16), (1.0, 100, 3, 1 << 20),
                              (0.685, 235, 10, 1 << 20)]:
        pld = steps.score_attack_plds(sigma, t, kind='sinh', bins=bins)['remove', 'attack']
        c = compose_plds([(pld, E)])
        out.append(c.delta_bounds(1.0)[0] if t == 2 else c.eps_bounds(1e-5)[0])
    print(f"SCORE_TAIL={tail}: δ(1) at t=2, σ=0.7/1/2: {out[0]:.4f} {out[1]:.4f} {out[2]:.5f}; "
          f"ε(1e-5) σ=1 t=100 E=3: {out[3]:.4f}; σ=0.685 t=235 E=10: {out[4]:.4f}", flush=True)
