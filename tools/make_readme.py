"Write README.md from the markdown cells of nbs/index.ipynb (nbdev_readme needs Quarto, which is not available offline)."
import json, pathlib
ROOT = pathlib.Path(__file__).resolve().parents[1]
nb = json.loads((ROOT / 'nbs' / 'index.ipynb').read_text(encoding='utf-8'))
text = '\n\n'.join(''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'markdown')
(ROOT / 'README.md').write_text(text + '\n', encoding='utf-8')
print('README.md written')
