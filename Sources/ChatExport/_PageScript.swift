/// The page's one script: day separators and times in the reader's time zone (in UTC when a
/// turn's day there would fall in a year outside 0001–9999) and the page's language, Copy (code, turns, links, markdown, the whole conversation), Share, "Download .md"
/// and the jump to the latest turn.
///
/// It reads the copy texts (a code block's code too, by its button's `data-code`) and its few
/// words from the JSON data block (`#rk-data`); it inserts text only through `textContent`, so
/// nothing from a reply is ever parsed as HTML or run. Dates are formatted in the page's `lang`,
/// so the page speaks one language whatever the browser's.
/// The text is hashed into the page's Content-Security-Policy, so it must never depend on the thread.
enum _PageScript {
  static let javascript = """
    (function () {
      "use strict";
      var doc = document;
      var root = doc.documentElement;
      var data = { turns: [], days: [], words: {} };
      try { data = JSON.parse(doc.getElementById("rk-data").textContent); } catch (error) { /* keep the page readable */ }
      var words = data.words || {};
      var live = doc.getElementById("rk-live");
      var thread = doc.querySelector(".thread");
      var lang = root.lang || "en";

      function capitalized(text) {
        return text ? text.charAt(0).toLocaleUpperCase(lang) + text.slice(1) : text;
      }
      function relativeDay(offset, fallback) {
        try {
          return capitalized(new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(offset, "day"));
        } catch (error) {
          return fallback;
        }
      }
      // Dates show in the reader's time zone, or in UTC for every turn when one of them would fall
      // in a year outside 0001-9999 there (as the page prints them without script).
      var utc = false;
      function zoned(options) { if (utc) { options.timeZone = "UTC"; } return options; }
      function yearOf(date) { return utc ? date.getUTCFullYear() : date.getFullYear(); }
      // Never new Date(year, month, day), which reads years 0-99 as 1900-1999.
      function startOfDay(date) {
        var day = new Date(date.getTime());
        if (utc) { day.setUTCHours(0, 0, 0, 0); } else { day.setHours(0, 0, 0, 0); }
        return day;
      }
      function pad(value, width) { var text = String(value); while (text.length < width) { text = "0" + text; } return text; }
      function dayText(date) {
        var month = utc ? date.getUTCMonth() : date.getMonth();
        var day = utc ? date.getUTCDate() : date.getDate();
        return pad(yearOf(date), 4) + "-" + pad(month + 1, 2) + "-" + pad(day, 2);
      }
      function chooseZone(turns) {
        for (var i = 0; i < turns.length; i++) {
          var instant = Number(turns[i].getAttribute("data-t"));
          if (!isFinite(instant)) { continue; }
          var year = new Date(instant).getFullYear();
          if (year < 1 || year > 9999) { utc = true; return; }
        }
      }

      // A separator per day in the reader's time zone: Today, Yesterday, else the date (a day
      // after today keeps its own date, never Today).
      function separators(turns) {
        if (!turns.length) { return; }
        var now = new Date();
        var today = startOfDay(now).getTime();
        var yesterday = startOfDay(new Date(today - 1)).getTime();
        var thisYear = yearOf(now);
        var todayTitle = relativeDay(0, "Today");
        var yesterdayTitle = relativeDay(-1, "Yesterday");
        var sameYear = new Intl.DateTimeFormat(lang, zoned({ weekday: "long", month: "long", day: "numeric" }));
        var otherYear = new Intl.DateTimeFormat(lang, zoned({ year: "numeric", month: "long", day: "numeric" }));
        var old = thread.querySelectorAll(".day");
        for (var o = 0; o < old.length; o++) { old[o].remove(); }
        var previous = null;
        for (var i = 0; i < turns.length; i++) {
          var instant = Number(turns[i].getAttribute("data-t"));
          if (!isFinite(instant)) { continue; }
          var date = startOfDay(new Date(instant));
          var day = date.getTime();
          if (day === previous) { continue; }
          previous = day;
          var title = day === today ? todayTitle
            : day === yesterday ? yesterdayTitle
            : capitalized((yearOf(date) === thisYear ? sameYear : otherYear).format(date));
          var heading = doc.createElement("h2");
          heading.className = "day";
          var time = doc.createElement("time");
          time.setAttribute("datetime", dayText(date));
          time.textContent = title;
          heading.appendChild(time);
          turns[i].parentNode.insertBefore(heading, turns[i]);
        }
      }

      // Each turn's time in the reader's time zone; the full date and time on hover.
      function times(turns) {
        var short = new Intl.DateTimeFormat(lang, zoned({ hour: "numeric", minute: "2-digit" }));
        var full = new Intl.DateTimeFormat(lang, zoned({ dateStyle: "full", timeStyle: "short" }));
        for (var i = 0; i < turns.length; i++) {
          var instant = Number(turns[i].getAttribute("data-t"));
          var stamp = turns[i].querySelector(".stamp");
          if (!isFinite(instant) || !stamp) { continue; }
          var date = new Date(instant);
          stamp.firstChild.textContent = short.format(date);
          stamp.title = full.format(date);
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
        var label = button.querySelector(".act-label, .head-label") || button;
        var before = button.getAttribute("data-label") || label.textContent;
        var copied = words.copied || "Copied";
        button.setAttribute("data-label", before);
        clearTimeout(button.rkTimer);
        label.textContent = copied;
        button.classList.add("is-done");
        announce(copied);
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
      // The conversation as markdown: the day headings and each turn's blocks, as the markdown
      // export writes them.
      function conversation() {
        var blocks = [];
        var days = data.days || [];
        var turns = data.turns || [];
        var next = 0;
        for (var i = 0; i < turns.length; i++) {
          while (next < days.length && days[next].i <= i) { blocks.push(days[next].h); next++; }
          blocks.push(typeof turns[i].c === "string" ? turns[i].c : (words.assistant || "**Assistant**") + "\\n\\n" + turns[i].m);
        }
        return blocks.length ? blocks.join("\\n\\n") + "\\n" : "";
      }
      function copyText(button) {
        var action = button.getAttribute("data-action");
        if (button.classList.contains("code-copy")) {
          // The code as written (the code element shows control characters as symbols); Copy
          // leaves out its final newline.
          var code = data.code ? data.code[Number(button.getAttribute("data-code"))] : null;
          if (typeof code !== "string") {
            var element = button.closest(".code").querySelector("pre code");
            code = element ? element.textContent : null;
          }
          return code === null ? null : code.replace(/\\n$/, "");
        }
        if (action === "copy-all") { return conversation(); }
        var article = button.closest("article.turn");
        if (action === "link") { return article ? location.href.split("#")[0] + "#" + article.id : null; }
        var turn = turnData(button);
        if (!turn) { return null; }
        var text = action === "markdown" ? turn.m : turn.p;
        return typeof text === "string" ? text : null;
      }
      function download() {
        var url = URL.createObjectURL(new Blob([conversation()], { type: "text/markdown;charset=utf-8" }));
        var link = doc.createElement("a");
        link.href = url;
        link.download = data.file || "conversation.md";
        doc.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
      }

      doc.addEventListener("click", function (event) {
        var button = event.target.closest ? event.target.closest("button[data-action]") : null;
        if (!button) { return; }
        if (button.getAttribute("data-action") === "download") { download(); return; }
        var text = copyText(button);
        if (text === null) { return; }
        if (button.getAttribute("data-action") === "share" && navigator.share) {
          navigator.share({ text: text }).catch(function () { /* dismissed */ });
          return;
        }
        copy(text).then(function (done) { if (done) { showCopied(button); } });
      });

      // Chunks off screen are laid out only when they come near (content-visibility), so the page
      // grows while it scrolls: keep scrolling until the target stays put for a few frames.
      var pinned = null;
      function settle(target) {
        pinned = target;
        var last = null;
        var still = 0;
        var frames = 0;
        function step() {
          if (pinned !== target) { return; }
          if (target === "end") {
            scrollTo(0, root.scrollHeight);
          } else {
            target.scrollIntoView({ block: "start" });
          }
          var where = target === "end" ? root.scrollHeight : target.getBoundingClientRect().top;
          still = where === last ? still + 1 : 0;
          last = where;
          frames += 1;
          if (still < 4 && frames < 600) { requestAnimationFrame(step); }
        }
        step();
      }
      function unpin() { pinned = null; }
      ["wheel", "touchstart", "keydown", "mousedown"].forEach(function (name) {
        addEventListener(name, unpin, { passive: true });
      });
      function jumpToLatest() {
        var jump = doc.querySelector(".jump");
        var end = doc.getElementById("latest");
        if (!jump || !end) { return; }
        if ("IntersectionObserver" in window) {
          new IntersectionObserver(function (entries) {
            var visible = entries[entries.length - 1].isIntersecting;
            jump.hidden = visible || root.scrollHeight <= innerHeight * 1.5;
          }).observe(end);
        }
        jump.addEventListener("click", function () { settle("end"); });
        // Stays at the end while turns above it are laid out, until the reader scrolls.
        if ("ResizeObserver" in window && thread) {
          new ResizeObserver(function () { if (pinned === "end") { scrollTo(0, root.scrollHeight); } }).observe(thread);
        }
      }
      function followHash() {
        var id = location.hash.slice(1);
        // A malformed escape (`#%E0%A4%A`) names no element as written; it must not stop the page.
        try { id = decodeURIComponent(id); } catch (error) { /* keep the fragment as written */ }
        var target = id ? doc.getElementById(id) : null;
        if (target) { settle(target); }
      }

      var turns = thread ? thread.querySelectorAll("article.turn") : [];
      chooseZone(turns);
      separators(turns);
      times(turns);
      var buttons = doc.querySelectorAll("button[data-action]");
      for (var b = 0; b < buttons.length; b++) { buttons[b].hidden = false; }
      jumpToLatest();
      addEventListener("hashchange", followHash);
      followHash();
      root.setAttribute("data-ready", "");
    })();
    """
}
