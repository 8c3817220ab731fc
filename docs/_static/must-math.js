// Typeset Sphinx's math nodes (span.math: \(..\), div.math: \[..\] or an environment) with the vendored KaTeX,
// then any $..$ left in raw HTML outputs. Sets window.mustMath = {rendered, errors} when done (read by the tests).
document.addEventListener('DOMContentLoaded', function () {
  var rendered = 0, errors = 0;
  if (window.katex) {
    document.querySelectorAll('span.math, div.math').forEach(function (el) {
      var tex = el.textContent.trim(), display = el.tagName === 'DIV';
      tex = tex.replace(/^\\\(([\s\S]*)\\\)$/, '$1').replace(/^\\\[([\s\S]*)\\\]$/, '$1');
      try { katex.render(tex, el, {displayMode: display, throwOnError: true}); rendered += 1; }
      catch (e) { errors += 1; console.error('KaTeX:', e.message, tex);
                  katex.render(tex, el, {displayMode: display, throwOnError: false}); }
    });
    if (window.renderMathInElement) {
      document.querySelectorAll('.output.text_html').forEach(function (el) {
        renderMathInElement(el, {delimiters: [{left: '$$', right: '$$', display: true}, {left: '$', right: '$', display: false}],
                                 throwOnError: false, errorCallback: function (m) { errors += 1; console.error(m); }});
      });
    }
    rendered = document.querySelectorAll('.katex').length;
    errors += document.querySelectorAll('.katex-error').length;
  }
  window.mustMath = {rendered: rendered, errors: errors};
});
