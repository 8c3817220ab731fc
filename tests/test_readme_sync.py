"README.md stands alone but must say what nbs/index.ipynb (the docs home page) says."
from pathlib import Path
import nbformat

ROOT = Path(__file__).resolve().parents[1]

def test_every_home_page_markdown_cell_is_in_the_readme():
    readme = (ROOT / 'README.md').read_text(encoding='utf-8')
    for cell in nbformat.read(ROOT / 'nbs' / 'index.ipynb', 4).cells:
        if cell.cell_type == 'markdown': assert cell.source.strip() in readme, cell.source[:80]

def test_ci_runs_the_readme_test_command():
    readme = (ROOT / 'README.md').read_text(encoding='utf-8')
    ci = (ROOT / '.ci' / 'run').read_text(encoding='utf-8')
    assert 'nbdev_test && pytest' in readme and 'nbdev_test && pytest' in ci
    assert 'pip install -e ".[dev,opacus]"' in readme and '-e ".[dev,opacus]"' in ci   # real Opacus: never skipped
