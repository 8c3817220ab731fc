/* must_nbdev docs: Sphinx's search scores (html_search_scorer), with one change: the API reference lists every name
 * and module of the library, so it matches most queries; it yields to the page that defines the name. */
var Scorer = {
  score: (result) => {
    const [docname, title, anchor, descr, score, filename, kind] = result;
    // an index entry's result says which entry it is ("The accountant > PrivacyAccountant.step"): a class's methods
    // were listed as the page's title over and over
    if (kind === 'index' && anchor && !title.includes(' > ')) {
      const entry = Scorer.entryAt(docname, anchor.slice(1));
      if (entry && entry.toLowerCase() !== title.toLowerCase()) result[1] = `${title} > ${entry}`;
    }
    return docname === 'api' ? score - 10 : score;
  },
  entries: null, names: {},
  entryAt: (docname, id) => {
    if (!Scorer.entries) {
      Scorer.entries = {};
      const index = Search._index;
      for (const [entry, found] of Object.entries(index.indexentries || {}))
        for (const [file, target] of found) if (target) Scorer.entries[`${index.docnames[file]}#${target}`] = entry;
      // the index keeps entries lower-cased: the API's objects give a name its own case (PrivacyAccountant.step)
      for (const [prefix, items] of Object.entries(index.objects || {}))
        for (const [file, , , target, name] of items) {
          const full = prefix ? `${prefix}.${name}` : name;
          if (!target || target === '-') continue;
          const shown = full.split('.').slice(-target.split('.').length).join('.');
          if (shown.toLowerCase() === target) Scorer.names[`${index.docnames[file]}#${target}`] = shown;
        }
    }
    const entry = Scorer.entries[`${docname}#${id}`];
    return entry && (Scorer.names[`${docname}#${entry}`] || entry);
  },
  objNameMatch: 11, objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 }, objPrioDefault: 0,
  title: 15, partialTitle: 7, term: 5, partialTerm: 2,
};
