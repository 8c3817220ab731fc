/* must_nbdev docs: search that finds names as they are written.
 * Sphinx splits a query at every dot, so "MUST.ow" searched for "must" and "ow" (which matches "allows"). Dotted
 * names stay whole here, and conf.py indexes them whole beside their parts. Snippets show math as text ("σ", not
 * "\(\sigma\)"): the page's static HTML holds the LaTeX that KaTeX typesets in the browser. */
var splitQuery = (query) => query
  .split(/[^\p{Letter}\p{Number}_.\p{Emoji_Presentation}]+/gu)
  .map(term => term.replace(/^\.+|\.+$/g, ''))
  .filter(term => term);

var mustPlainMath = (() => {
  const greek = {alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', varepsilon: 'ε', eta: 'η', theta: 'θ',
                 lambda: 'λ', mu: 'μ', pi: 'π', rho: 'ρ', sigma: 'σ', tau: 'τ', phi: 'φ', varphi: 'φ', chi: 'χ',
                 omega: 'ω', Delta: 'Δ', Phi: 'Φ', infty: '∞', le: '≤', leq: '≤', ge: '≥', geq: '≥', cdot: '·',
                 times: '×', approx: '≈', mathcal: '', mathbb: '', mathrm: '', operatorname: '', frac: '', left: '',
                 right: ''};
  return (tex) => tex.replace(/\\\(|\\\)|\\\[|\\\]|\$/g, '')
                     .replace(/\\([A-Za-z]+)/g, (m, name) => name in greek ? greek[name] : name)
                     .replace(/[{}]/g, '').replace(/\\,|\\ /g, ' ');
})();

document.addEventListener('DOMContentLoaded', () => {
  if (typeof Search === 'undefined' || !Search.htmlToText) return;
  const htmlToText = Search.htmlToText;
  Search.htmlToText = (htmlString, anchor) => {
    const doc = new DOMParser().parseFromString(htmlString, 'text/html');
    doc.querySelectorAll('span.math, div.math').forEach(m => { m.textContent = mustPlainMath(m.textContent); });
    return htmlToText(doc.documentElement.outerHTML, anchor);
  };
});
