/// The page's one script: day separators in the reader's time zone and language, Copy, Share and
/// the jump to the latest turn.
///
/// It reads each reply's plain text from the JSON data block (`#rk-data`) and a code block's code
/// from its code element's text; it inserts text only through `textContent`, so nothing from a
/// reply is ever parsed as HTML or run.
/// The text is hashed into the page's Content-Security-Policy, so it must never depend on the thread.
enum _PageScript {
  static let javascript = """
    (function () {
      "use strict";
      var doc = document;
      var data = { turns: [] };
      try { data = JSON.parse(doc.getElementById("rk-data").textContent); } catch (error) { /* keep the page readable */ }
      var live = doc.getElementById("rk-live");
      var thread = doc.querySelector(".thread");
      var languages = navigator.languages && navigator.languages.length ? navigator.languages.slice() : [navigator.language || "en"];

      function capitalized(text) {
        return text ? text.charAt(0).toLocaleUpperCase(languages[0]) + text.slice(1) : text;
      }
      function relativeDay(offset, fallback) {
        try {
          return capitalized(new Intl.RelativeTimeFormat(languages, { numeric: "auto" }).format(offset, "day"));
        } catch (error) {
          return fallback;
        }
      }
      function startOfDay(date) { return new Date(date.getFullYear(), date.getMonth(), date.getDate()); }

      function separators() {
        var turns = thread ? thread.querySelectorAll("article.turn") : [];
        if (!turns.length) { return; }
        var now = new Date();
        var today = startOfDay(now).getTime();
        var yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1).getTime();
        var thisYear = now.getFullYear();
        var todayTitle = relativeDay(0, "Today");
        var yesterdayTitle = relativeDay(-1, "Yesterday");
        var sameYear = new Intl.DateTimeFormat(languages, { weekday: "long", month: "long", day: "numeric" });
        var otherYear = new Intl.DateTimeFormat(languages, { year: "numeric", month: "long", day: "numeric" });
        var old = thread.querySelectorAll(".day");
        for (var o = 0; o < old.length; o++) { old[o].remove(); }
        var previous = null;
        for (var i = 0; i < turns.length; i++) {
          var instant = Number(turns[i].getAttribute("data-t"));
          if (!isFinite(instant)) { continue; }
          var day = instant >= today ? today : startOfDay(new Date(instant)).getTime();
          if (day === previous) { continue; }
          previous = day;
          var date = new Date(day);
          var title = day === today ? todayTitle
            : day === yesterday ? yesterdayTitle
            : (date.getFullYear() === thisYear ? sameYear : otherYear).format(date);
          var heading = doc.createElement("h2");
          heading.className = "day";
          heading.textContent = title;
          thread.insertBefore(heading, turns[i]);
        }
      }

      function announce(text) {
        if (!live) { return; }
        live.textContent = "";
        setTimeout(function () { live.textContent = text; }, 30);
      }
      function copyWithSelection(text) {
        var area = doc.createElement("textarea");
        area.value = text;
        area.setAttribute("readonly", "");
        area.className = "offscreen";
        doc.body.appendChild(area);
        area.select();
        var done = false;
        try { done = doc.execCommand("copy"); } catch (error) { done = false; }
        area.remove();
        return done;
      }
      function copy(text) {
        if (navigator.clipboard && navigator.clipboard.writeText) {
          return navigator.clipboard.writeText(text).then(function () { return true; }, function () { return copyWithSelection(text); });
        }
        return Promise.resolve(copyWithSelection(text));
      }
      function showCopied(button) {
        var label = button.querySelector(".act-label") || button;
        var before = button.getAttribute("data-label") || label.textContent;
        button.setAttribute("data-label", before);
        clearTimeout(button.rkTimer);
        label.textContent = "Copied";
        button.classList.add("is-done");
        announce("Copied");
        button.rkTimer = setTimeout(function () {
          label.textContent = before;
          button.classList.remove("is-done");
        }, 1600);
      }
      function turnData(button) {
        var article = button.closest("article.turn");
        var index = article ? Number(article.getAttribute("data-i")) : NaN;
        return data.turns && isFinite(index) ? data.turns[index] : null;
      }
      function copyText(button) {
        if (button.classList.contains("code-copy")) {
          // The code element's text is the code, verbatim; Copy leaves out its final newline.
          var element = button.closest(".code").querySelector("pre code");
          return element ? element.textContent.replace(/\\n$/, "") : null;
        }
        var turn = turnData(button);
        return turn && typeof turn.plain === "string" ? turn.plain : null;
      }

      doc.addEventListener("click", function (event) {
        var button = event.target.closest ? event.target.closest("button[data-action]") : null;
        if (!button) { return; }
        var text = copyText(button);
        if (text === null) { return; }
        if (button.getAttribute("data-action") === "share" && navigator.share) {
          navigator.share({ text: text }).catch(function () { /* dismissed */ });
          return;
        }
        copy(text).then(function (done) { if (done) { showCopied(button); } });
      });

      function jumpToLatest() {
        var jump = doc.querySelector(".jump");
        var end = doc.getElementById("latest");
        if (!jump || !end || !("IntersectionObserver" in window)) { return; }
        new IntersectionObserver(function (entries) {
          var visible = entries[entries.length - 1].isIntersecting;
          jump.hidden = visible || doc.documentElement.scrollHeight <= innerHeight * 1.5;
        }).observe(end);
        jump.addEventListener("click", function () {
          var reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
          end.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "end" });
        });
      }

      separators();
      var buttons = doc.querySelectorAll("button[data-action]");
      for (var b = 0; b < buttons.length; b++) { buttons[b].hidden = false; }
      jumpToLatest();
      doc.documentElement.setAttribute("data-ready", "");
    })();
    """
}
