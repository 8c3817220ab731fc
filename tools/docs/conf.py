"""Sphinx configuration of the docs website (built by tools/build_docs.py, which writes the sources to
_docs_build/src and passes this directory with -c). Theme: sphinx-book-theme; notebooks: MyST-NB, not executed
here (tools/build_docs.py executed and processed them with nbdev first); math: KaTeX from _static/katex."""
import json, os
from pathlib import Path

project = 'must_nbdev'
# the package's version (settings.ini, what nbdev writes into must_nbdev/__init__.py), shown on every page's title
release = version = next(l.split('=', 1)[1].strip() for l in
                         (Path(__file__).resolve().parents[2] / 'settings.ini').read_text().splitlines()
                         if l.startswith('version'))
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
myst_all_links_external = True   # links are written by tools/build_docs.py as relative .html paths: keep them as written
suppress_warnings = ['myst.header', 'myst.xref_missing', 'mystnb.unknown_mime_type', 'misc.highlighting_failure']

# math: Sphinx's math nodes (<span class="math">\(..\)</span>) typeset by the vendored KaTeX (_static/must-math.js)
mathjax_path = 'katex/katex.min.js'

html_theme = 'sphinx_book_theme'
html_title = f'must_nbdev {version}'
smartquotes = False   # prose names options (--out) and quotes code: no en dashes or curly quotes made from them
html_favicon = '_static/favicon.svg'
html_static_path = ['_static']
html_extra_path = [os.environ['MUST_DOCS_EXTRA']] if os.environ.get('MUST_DOCS_EXTRA') else []
html_css_files = ['katex/katex.min.css', 'must.css', 'must-icons.css']
html_js_files = [('must-math.js', {'defer': 'defer'}), ('must-nav.js', {'defer': 'defer'}),
                 'must-search.js']   # not deferred: its splitQuery must exist before Sphinx's searchtools.js runs
html_copy_source = False
html_search_scorer = str(Path(__file__).parent / 'must-scorer.js')   # the API page yields to defining pages
html_show_sourcelink = False
html_show_sphinx = False
html_last_updated_fmt = None
html_context = {'default_mode': 'auto'}   # the theme's light/dark mode; unset, its script logs 'Got invalid theme mode'
html_theme_options = {
    'repository_url': GIT_URL, 'repository_branch': 'main', 'path_to_docs': 'nbs',
    'use_repository_button': True, 'use_issues_button': True, 'use_source_button': True, 'use_download_button': False,
    'home_page_in_toc': True, 'show_toc_level': 2, 'show_navbar_depth': 1, 'navigation_with_keys': False,
    'toc_title': 'On this page',
}
copybutton_selector = 'div.cell_input div.highlight pre, div.highlight-bash pre, div.highlight-python pre, div.highlight-default pre'
copybutton_prompt_text = r'\$ '
copybutton_prompt_is_regexp = True

def _no_fontawesome_js():
    """The theme's template macros without its 1.56 MB fontawesome.js (the site draws its icons from its own CSS): a
    copy of the installed pydata-sphinx-theme's static/webpack-macros.html minus that script, found first on templates_path; the icons come
    from _static/must-icons.css. The copy is made from the installed theme, so its asset digests stay right."""
    import re
    import pydata_sphinx_theme
    src = Path(pydata_sphinx_theme.__file__).parent / 'theme' / 'pydata_sphinx_theme' / 'static' / 'webpack-macros.html'
    out = Path(os.environ.get('MUST_DOCS_TEMPLATES', Path(__file__).resolve().parents[2] / '_docs_build' / 'templates'))
    (out / 'static').mkdir(parents=True, exist_ok=True)
    text = re.sub(r'[^\n]*<script[^>]*fontawesome\.js[^>]*></script>[^\n]*\n', '', src.read_text(encoding='utf-8'))
    (out / 'static' / 'webpack-macros.html').write_text(text, encoding='utf-8')
    return str(out)

templates_path = [_no_fontawesome_js()]

_PAGES = Path(os.environ.get('MUST_DOCS_PAGES', '/nonexistent'))
_INFO = json.loads(_PAGES.read_text()) if _PAGES.exists() else {}   # page -> sha256, notebook, description

def _attr(s): return str(s).replace('&', '&amp;').replace('"', '&quot;').replace('<', '&lt;')

def _fix_source_urls(buttons, pagename, notebook):
    "The theme builds 'Show source' from path_to_docs + page name; a page is named after its module, not its file."
    for b in buttons:
        if isinstance(b.get('url'), str): b['url'] = b['url'].replace(f'nbs/{pagename}.ipynb', notebook)
        _fix_source_urls(b.get('buttons', []), pagename, notebook)

def _stamp(app, pagename, templatename, context, doctree):
    """Each notebook page carries the hash of its notebook's sources (tests/test_docs_site.py checks staleness), a
    description for search engines and link previews, and source buttons that open its notebook."""
    if context.get('title') == project: context['title'] = 'Home'   # 'Home — must_nbdev', not the name twice
    info = _INFO.get(pagename)
    desc = (info or {}).get('description') or {'api': f'The API reference of {project}.',
                                               'cli-reference': f'Every subcommand of {project}\'s must command with '
                                                                'the help it prints.'}.get(pagename, '')
    tags = ''
    if info: tags += f'\n<meta name="must-nb-sha256" content="{info["sha256"]}">'
    if desc:
        tags += f'\n<meta name="description" content="{_attr(desc)}">\n<meta property="og:description" content="{_attr(desc)}">'
    tags += f'\n<meta property="og:title" content="{_attr(context.get("title", project))}">\n<meta property="og:type" content="website">'
    context['metatags'] = context.get('metatags', '') + tags
    if info: _fix_source_urls(context.get('header_buttons', []), pagename, info['notebook'])

def _search_language():
    "English search that also indexes dotted names whole (MUST.ow, core.sampling) beside their parts."
    import re
    from sphinx.search.en import SearchEnglish
    class SearchEnglishNames(SearchEnglish):
        dotted = re.compile(r'\w+(?:\.\w+)+')
        def split(self, input):
            return super().split(input) + [w for w in self.dotted.findall(input) if not w.replace('.', '').isdigit()]
    return SearchEnglishNames

_OBJECTS = Path(os.environ.get('MUST_DOCS_OBJECTS', '/nonexistent'))
_API = json.loads(_OBJECTS.read_text()) if _OBJECTS.exists() else {}   # full name -> [kind, page, anchor]

def _note_api_objects(app, doctree):
    """The library's public names go into objects.inv as Python objects at their show_doc entries (the page's anchors
    are written by tools/build_docs.py), so other projects' intersphinx can link to them."""
    py = app.env.get_domain('py')
    for full, (kind, page, anchor) in _API.items():
        if page == app.env.docname: py.objects[full] = py.objects.get(full) or _py_object(page, anchor, kind)

def _py_object(docname, node_id, objtype):
    from sphinx.domains.python import ObjectEntry
    return ObjectEntry(docname, node_id, objtype, False)

def setup(app):
    app.connect('doctree-read', _note_api_objects)
    app.add_search_language(_search_language())   # the query side: _static/must-search.js keeps dotted names whole
    app.connect('html-page-context', _stamp, priority=600)   # after the theme's header buttons (priority 501)
