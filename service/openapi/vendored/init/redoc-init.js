// Starts Redoc on the docs page (/schema, /schema/redoc). A file of its own, not an inline
// script, so that the page's CSP needs no 'unsafe-inline' for scripts; Redoc fetches the
// document from the URL the page names.
"use strict";
(function () {
  var el = document.getElementById("redoc-container");
  Redoc.init(el.dataset.specUrl, {}, el);
})();
