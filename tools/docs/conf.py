"""Sphinx configuration of the docs website (built by tools/build_docs.py, which writes the sources to
_docs_build/src and passes this directory with -c). Theme: sphinx-book-theme; notebooks: MyST-NB, not executed
here (tools/build_docs.py executed and processed them with nbdev first); math: KaTeX from _static/katex."""
import json, os
from pathlib import Path

project = 'must_nbdev'
author = 'must_nbdev developers'
copyright = '2026 onwards, must_nbdev developers'
GIT_URL = 'https://github.com/must-nbdev/must_nbdev'

extensions = ['myst_nb', 'sphinx_copybutton']
root_doc = 'index'
exclude_patterns = ['_build', '**.ipynb_checkpoints']

# notebooks: already executed and processed by nbdev (tools/build_docs.py)
nb_execution_mode = 'off'
nb_output_stderr = 'remove'
nb_merge_streams = True
nb_render_markdown_format = 'myst'
nb_mime_priority_overrides = [('html', 'text/html', 0), ('html', 'text/markdown', 10)]
myst_enable_extensions = ['dollarmath', 'amsmath', 'attrs_inline', 'attrs_block', 'colon_fence', 'html_image', 'deflist']
myst_dmath_double_inline = True
myst_heading_anchors = 3
suppress_warnings = ['myst.header', 'myst.xref_missing', 'mystnb.unknown_mime_type', 'misc.highlighting_failure']

# math: Sphinx's math nodes (<span class="math">\(..\)</span>) typeset by the vendored KaTeX (_static/must-math.js)
mathjax_path = 'katex/katex.min.js'

html_theme = 'sphinx_book_theme'
html_title = 'must_nbdev'
html_favicon = '_static/favicon.svg'
html_static_path = ['_static']
html_extra_path = [os.environ['MUST_DOCS_EXTRA']] if os.environ.get('MUST_DOCS_EXTRA') else []
html_css_files = ['katex/katex.min.css', 'must.css']
html_js_files = [('must-math.js', {'defer': 'defer'})]
html_copy_source = False
html_show_sourcelink = False
html_show_sphinx = False
html_last_updated_fmt = None
html_theme_options = {
    'repository_url': GIT_URL, 'repository_branch': 'main', 'path_to_docs': 'nbs',
    'use_repository_button': True, 'use_issues_button': True, 'use_source_button': True, 'use_download_button': False,
    'home_page_in_toc': True, 'show_toc_level': 2, 'show_navbar_depth': 1, 'navigation_with_keys': False,
    'toc_title': 'On this page',
}
copybutton_selector = 'div.cell_input div.highlight pre, div.highlight-bash pre, div.highlight-python pre, div.highlight-default pre'
copybutton_prompt_text = r'\$ '
copybutton_prompt_is_regexp = True

_HASHES = Path(os.environ.get('MUST_DOCS_HASHES', '/nonexistent'))

def _stamp(app, pagename, templatename, context, doctree):
    "Each notebook page carries the hash of its notebook's sources (tests/test_docs_site.py checks staleness)."
    if context.get('title') == project: context['title'] = 'Home'   # 'Home — must_nbdev', not the name twice
    hashes = json.loads(_HASHES.read_text()) if _HASHES.exists() else {}
    if pagename in hashes:
        context['metatags'] = context.get('metatags', '') + f'\n<meta name="must-nb-sha256" content="{hashes[pagename]}">'

def setup(app):
    app.connect('html-page-context', _stamp)
