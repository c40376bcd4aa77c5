// Starts Swagger UI on /schema/swagger (a file of its own, not an inline script: the page's
// CSP allows scripts from this origin only). Swagger UI fetches the document from the URL
// the page names; "Try it out" sends its requests to this origin (connect-src 'self').
"use strict";
(function () {
  var el = document.getElementById("swagger-container");
  window.ui = SwaggerUIBundle({
    url: el.dataset.specUrl,
    dom_id: "#swagger-container",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
})();
