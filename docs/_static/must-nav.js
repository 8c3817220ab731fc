/* must_nbdev docs: every sidebar toggle works, search snippets are page text only.
 *
 * pydata-sphinx-theme 0.20 puts a second ☰ / "On this page" toggle in the article header while its script (and
 * sphinx-book-theme's, for wide screens) binds only document.querySelector('.primary-toggle') - the first one, in a
 * navbar that the book theme hides (github.com/executablebooks/sphinx-book-theme/issues/935). A click on any other toggle is forwarded to it.
 */
(function () {
  function forward(selector) {
    const all = Array.from(document.querySelectorAll(selector));
    const bound = all[0];
    all.slice(1).forEach((btn) => btn.addEventListener('click', (event) => {
      event.preventDefault(); event.stopPropagation();
      bound.click();
    }));
  }
  function ready(fn) { document.readyState !== 'loading' ? fn() : document.addEventListener('DOMContentLoaded', fn); }
  ready(() => { forward('.primary-toggle'); forward('.secondary-toggle'); });

  /* On a phone the sidebar and the contents open as dialogs, which stayed open after a tap on a link of this page:
   * a tap on any link closes its dialog, so the reader sees where it leads. */
  ready(() => document.querySelectorAll('dialog#pst-primary-sidebar-modal, dialog#pst-secondary-sidebar-modal')
    .forEach((dlg) => dlg.addEventListener('click', (event) => {
      if (event.target.closest('a[href]') && dlg.open) dlg.close();
    })));

  /* The theme restores the sidebar's scroll position from the last page, so after "next", a search or a link in the
   * text the current page's link could be out of view: bring it into view (the sidebar only, not the window). */
  ready(() => setTimeout(() => {
    const sidebar = document.querySelector('div.bd-sidebar-primary');
    const link = sidebar && sidebar.querySelector('.bd-docs-nav a.current, .bd-docs-nav li.active > a');
    if (!link) return;
    const box = sidebar.getBoundingClientRect(), at = link.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) sidebar.scrollTop += at.top - box.top - sidebar.clientHeight / 3;
  }, 0));

  /* Sphinx's search shows, under each result, text of the page's [role=main] element, which in this theme also holds
   * the article header (Repository, Show source, Open issue) and the theme switcher: read the article only. */
  function cleanSearch() {
    if (typeof Search === 'undefined' || Search._mustClean) return;
    const orig = Search.htmlToText;
    Search.htmlToText = (htmlString, anchor) => {
      const doc = new DOMParser().parseFromString(htmlString, 'text/html');
      const article = doc.querySelector('article.bd-article');
      if (article) {
        doc.querySelectorAll('[role="main"]').forEach((e) => e.removeAttribute('role'));
        article.setAttribute('role', 'main');
        article.querySelectorAll('.must-source, .headerlink, .copybtn').forEach((e) => e.remove());
        // an index entry's target is an empty element before its entry: summarise the entry's section instead
        const target = anchor && article.querySelector(anchor);
        if (target && !target.textContent.trim() && target.closest('section')) {
          target.removeAttribute('id'); target.closest('section').id = anchor.slice(1);
        }
      }
      return orig(doc.documentElement.outerHTML, anchor);
    };
    Search._mustClean = true;
  }
  cleanSearch();
  ready(cleanSearch);
})();
