"The moonshot component test (research/moonshot.py) at the DP-SGD size: γ = 256/60000, σ ∈ {1.1, 2.62} (1-D, 9^3 grid)."
import json, time
from moonshot import coupled
for s in (1.1, 2.62):
    t = time.time(); r = coupled(256 / 60000, 2 / s, n=9)
    print(json.dumps(dict(test='coupled components (DP-SGD size)', gamma=256 / 60000, c=2 / s, sigma=s,
                          seconds=round(time.time() - t, 1), **r)), flush=True)
