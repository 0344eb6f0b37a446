// tokenrisk web page enhancements: theme switch, busy state while a scan
// runs, badge snippets with this page's origin, and a premium key's history
// and export (the key stays in sessionStorage). The page works without it.
(function () {
  "use strict";
  var root = document.documentElement;

  // Theme: follows the system until the user picks one.
  var themeButton = document.getElementById("theme");
  function currentTheme() {
    var t = root.getAttribute("data-theme");
    if (t) return t;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  function showTheme() {
    var dark = currentTheme() === "dark";
    themeButton.textContent = dark ? "Light theme" : "Dark theme";
    themeButton.setAttribute("aria-pressed", dark ? "true" : "false");
  }
  try {
    var saved = window.localStorage.getItem("tokenrisk-theme");
    if (saved === "dark" || saved === "light") root.setAttribute("data-theme", saved);
  } catch (e) { /* storage may be off */ }
  if (themeButton) {
    themeButton.hidden = false;
    showTheme();
    themeButton.addEventListener("click", function () {
      var next = currentTheme() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { window.localStorage.setItem("tokenrisk-theme", next); } catch (e) { /* ignore */ }
      showTheme();
    });
  }

  // A scan takes a few seconds: say so on the button that started it.
  Array.prototype.forEach.call(document.querySelectorAll("form"), function (form) {
    if (form.id === "key-form") return;
    form.addEventListener("submit", function () {
      var b = form.querySelector("button[type=submit]");
      if (b) {
        b.setAttribute("aria-busy", "true");
        b.textContent = "Scanning…";
      }
    });
  });

  // Relative badge snippets (no --public-url) get the origin the browser sees.
  Array.prototype.forEach.call(document.querySelectorAll("textarea.snippet"), function (t) {
    t.value = t.value.replace(/(href="|src="|\]\()\//g, "$1" + window.location.origin + "/");
  });

  // A premium key: history and export through the API.
  var account = document.getElementById("account");
  if (!account) return;
  account.hidden = false;
  var keyInput = document.getElementById("key");
  var status = document.getElementById("key-status");
  var forget = document.getElementById("forget-key");
  var history = document.getElementById("history");
  var rows = document.getElementById("history-rows");

  function storedKey() {
    try { return window.sessionStorage.getItem("tokenrisk-key") || ""; } catch (e) { return ""; }
  }
  function api(path, key) {
    return window.fetch(path, { headers: { "Authorization": "Bearer " + key } }).then(function (res) {
      if (!res.ok) {
        return res.json().catch(function () { return {}; }).then(function (p) {
          throw new Error(p.detail || ("HTTP " + res.status));
        });
      }
      return res;
    });
  }
  function cell(tr, text) {
    var td = document.createElement("td");
    td.textContent = text;
    tr.appendChild(td);
  }
  function load(key) {
    status.textContent = "Checking the key…";
    api("/api/v1/usage", key).then(function (res) { return res.json(); }).then(function (u) {
      forget.hidden = false;
      if (!u.history) {
        status.textContent = "Key of plan " + u.plan + ": " + u.scans_today + " scans today. History and export need premium.";
        history.hidden = true;
        return null;
      }
      status.textContent = "Premium key: " + u.scans_today + " scans today.";
      return api("/api/v1/scans?limit=10", key).then(function (res) { return res.json(); }).then(function (page) {
        rows.textContent = "";
        page.scans.forEach(function (s) {
          var tr = document.createElement("tr");
          cell(tr, new Date(s.created_at).toLocaleString());
          var td = document.createElement("td");
          var a = document.createElement("a");
          a.href = "/token/" + encodeURIComponent(s.address);
          a.textContent = s.address;
          td.appendChild(a);
          tr.appendChild(td);
          cell(tr, s.chain);
          cell(tr, s.risk_level);
          cell(tr, String(s.overall_risk_score));
          rows.appendChild(tr);
        });
        history.hidden = false;
      });
    }).catch(function (err) {
      status.textContent = "The key was not accepted: " + err.message;
      history.hidden = true;
    });
  }
  function download(format) {
    var key = storedKey();
    if (!key) return;
    status.textContent = "Exporting…";
    api("/api/v1/scans/export?format=" + format, key).then(function (res) { return res.blob(); }).then(function (blob) {
      var a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = "tokenrisk-scans." + format;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
      status.textContent = "Export saved.";
    }).catch(function (err) { status.textContent = "Export failed: " + err.message; });
  }
  document.getElementById("key-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var key = keyInput.value.trim();
    if (!key) return;
    try { window.sessionStorage.setItem("tokenrisk-key", key); } catch (e) { /* kept for this page only */ }
    keyInput.value = "";
    load(key);
  });
  forget.addEventListener("click", function () {
    try { window.sessionStorage.removeItem("tokenrisk-key"); } catch (e) { /* ignore */ }
    forget.hidden = true;
    history.hidden = true;
    status.textContent = "Key forgotten.";
  });
  document.getElementById("export-csv").addEventListener("click", function () { download("csv"); });
  document.getElementById("export-ndjson").addEventListener("click", function () { download("ndjson"); });
  var k = storedKey();
  if (k) load(k);
})();
