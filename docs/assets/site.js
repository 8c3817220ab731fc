// Typeset $...$ and $$...$$ with the vendored KaTeX; sets window.mustMath = {rendered, errors} when done.
document.addEventListener('DOMContentLoaded', function () {
  var errors = 0;
  renderMathInElement(document.querySelector('main') || document.body, {
    delimiters: [{left: '$$', right: '$$', display: true}, {left: '\\[', right: '\\]', display: true},
                 {left: '$', right: '$', display: false}, {left: '\\(', right: '\\)', display: false}],
    ignoredTags: ['script', 'noscript', 'style', 'textarea', 'pre', 'code', 'option'],
    throwOnError: false, errorCallback: function (msg, err) { errors += 1; console.error(msg, err); }
  });
  window.mustMath = {rendered: document.querySelectorAll('.katex').length,
                     errors: errors + document.querySelectorAll('.katex-error').length};
});
