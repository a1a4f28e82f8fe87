/// The page's one style sheet: the spec's theming (`ChatThreadBlock.md`, Theming) as CSS custom
/// properties, light and dark.
///
/// Sizes are in `rem`, so the page follows the reader's browser font size the way the block
/// follows Dynamic Type (1 rem stands for 16 points of the default body size; 17 pt body is
/// 1.0625 rem). The text is hashed into the page's Content-Security-Policy, so it must never
/// depend on the thread.
enum _PageStyle {
  static let css = """
    :root {
      color-scheme: light dark;
      --fill: #ebebf0;
      --surface: #ffffff;
      --surface-elevated: #ffffff;
      --text-primary: #1b1b1f;
      --text-secondary: #66666e;
      --danger: #c4271b;
      --separator: rgba(60, 60, 67, 0.28);
      --radius-md: 0.75rem;
      --type-title: 600 1.375rem/1.25 var(--font-text);
      --type-body-size: 1.0625rem;
      --type-footnote-size: 0.8125rem;
      --type-caption-size: 0.75rem;
      --line-height: 1.47;
      --elevation-e2: 0 0.25rem 0.75rem rgba(0, 0, 0, 0.12), 0 0.0625rem 0.1875rem rgba(0, 0, 0, 0.08);
      --hairline: 1px;
      --motion-smooth: 360ms cubic-bezier(0.2, 0.9, 0.25, 1);
      --motion-snappy: 180ms cubic-bezier(0.3, 0.7, 0.2, 1);
      --font-text: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      --font-mono: ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
    }
    @media screen and (prefers-color-scheme: dark) {
      :root {
        --fill: #2c2c30;
        --surface: #121214;
        --surface-elevated: #232327;
        --text-primary: #f2f2f5;
        --text-secondary: #a0a0a8;
        --danger: #ff6b5e;
        --separator: rgba(235, 235, 245, 0.2);
        --elevation-e2: 0 0.25rem 0.75rem rgba(0, 0, 0, 0.5), 0 0.0625rem 0.1875rem rgba(0, 0, 0, 0.4);
      }
    }
    @media (min-resolution: 2dppx) {
      :root { --hairline: 0.5px; }
    }
    *, *::before, *::after { box-sizing: border-box; }
    html { font-size: 100%; -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
    body {
      margin: 0;
      background: var(--surface);
      color: var(--text-primary);
      font-family: var(--font-text);
      font-size: var(--type-body-size);
      line-height: var(--line-height);
    }
    .page { max-width: 48rem; margin: 0 auto; padding: 1.25rem 1rem 5rem; }
    .page-head { margin: 0 0 0.5rem; }
    .page-head h1 { font: var(--type-title); margin: 0; overflow-wrap: anywhere; }
    .page-meta { margin: 0.25rem 0 0; color: var(--text-secondary); font-size: var(--type-footnote-size); }
    .page-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.75rem 0 0; }
    .head-act {
      display: inline-flex;
      align-items: center;
      gap: 0.375rem;
      min-height: 2.25rem;
      padding: 0 0.875rem;
      border: var(--hairline) solid var(--separator);
      border-radius: 999px;
      background: none;
      color: var(--text-primary);
      font-size: var(--type-footnote-size);
      cursor: pointer;
    }
    .head-act svg { width: 1.125em; height: 1.125em; }
    .empty { margin: 3rem 0; text-align: center; color: var(--text-secondary); }
    .thread, .chunk { display: flex; flex-direction: column; gap: 0.75rem; }
    .chunk { content-visibility: auto; contain-intrinsic-size: auto 400rem; }
    .day {
      margin: 1rem 0 0.25rem;
      text-align: center;
      font-size: var(--type-footnote-size);
      font-weight: 500;
      line-height: 1.3;
      color: var(--text-secondary);
    }
    .turn {
      min-width: 0;
      scroll-margin: 1rem 0;
      border-radius: var(--radius-md);
    }
    .turn:target { box-shadow: 0 0 0 0.5rem color-mix(in srgb, var(--fill) 55%, transparent); background: color-mix(in srgb, var(--fill) 55%, transparent); }
    .turn[data-recent] { animation: rk-appear var(--motion-smooth) both; }
    .turn-you { display: flex; flex-direction: column; align-items: flex-end; }
    .meta { display: flex; align-items: center; margin: 0.125rem -0.625rem 0 0; color: var(--text-secondary); }
    .stamp {
      display: inline-flex;
      align-items: center;
      min-height: 2.75rem;
      padding: 0 0.625rem;
      color: var(--text-secondary);
      font-size: var(--type-caption-size);
      text-decoration: none;
      white-space: nowrap;
    }
    .stamp:hover { text-decoration: underline; }
    .meta > *, .actions > .stamp, .actions > [data-action="link"] { opacity: 0; transition: opacity var(--motion-snappy); }
    .turn:hover .meta > *, .turn:focus-within .meta > *, .turn:target .meta > *,
    .turn:hover .actions > *, .turn:focus-within .actions > *, .turn:target .actions > * { opacity: 1; }
    @media (hover: none) {
      .meta > *, .actions > .stamp, .actions > [data-action="link"] { opacity: 1; }
    }
    .bubble {
      max-width: min(85%, 36rem);
      padding: 0.625rem 0.875rem;
      background: var(--fill);
      border-radius: var(--radius-md);
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .reply { overflow-wrap: break-word; }
    .reply > :first-child { margin-top: 0; }
    .reply > :last-child { margin-bottom: 0; }
    .reply p, .reply ul, .reply ol, .reply blockquote, .reply .table-scroll, .reply .code, .reply hr { margin: 0 0 0.75rem; }
    .reply h3, .reply h4, .reply h5, .reply h6 { font-size: 1em; font-weight: 600; line-height: 1.3; margin: 1rem 0 0.5rem; }
    .reply .rh1 { font-size: 1.25em; }
    .reply .rh2 { font-size: 1.125em; }
    .reply strong, .reply b, .reply th { font-weight: 600; }
    .reply ul, .reply ol { padding-left: 1.5rem; }
    .reply li > p { margin: 0 0 0.375rem; }
    .reply li > ul, .reply li > ol { margin: 0.25rem 0; }
    .reply a { color: inherit; text-decoration-thickness: 0.0625rem; text-underline-offset: 0.15em; }
    .reply img { max-width: 100%; }
    .link-off { text-decoration: underline dotted; text-decoration-color: var(--text-secondary); text-underline-offset: 0.15em; }
    .link-url { color: var(--text-secondary); font-size: 0.875em; overflow-wrap: anywhere; }
    .link-off, .url, .model-name, .code-lang, .state > span { unicode-bidi: isolate; }
    .img-link {
      display: inline-flex;
      align-items: center;
      gap: 0.375rem;
      max-width: 100%;
      padding: 0.25rem 0.625rem;
      border: var(--hairline) dashed var(--text-secondary);
      border-radius: 0.5rem;
      color: inherit;
      font-size: var(--type-footnote-size);
      text-decoration: none;
      vertical-align: middle;
    }
    a.img-link:hover span { text-decoration: underline; }
    .img-link svg { flex: none; width: 1.125em; height: 1.125em; }
    .img-off { border-style: dotted; color: var(--text-secondary); }
    .reply blockquote { margin-left: 0; padding-left: 0.875rem; border-left: 0.1875rem solid var(--separator); color: var(--text-secondary); }
    .reply hr { border: 0; border-top: var(--hairline) solid var(--separator); }
    .table-scroll { max-width: 100%; overflow-x: auto; border-radius: 0.25rem; }
    .reply table { border-collapse: collapse; font-size: var(--type-footnote-size); }
    .reply th, .reply td {
      min-width: 7rem;
      max-width: 24rem;
      border: var(--hairline) solid var(--separator);
      padding: 0.375rem 0.625rem;
      text-align: left;
      vertical-align: top;
      overflow-wrap: break-word;
    }
    .reply th:first-child, .reply td:first-child { min-width: 5rem; }
    .reply th[align="center"], .reply td[align="center"] { text-align: center; }
    .reply th[align="right"], .reply td[align="right"] { text-align: right; }
    .reply code {
      font-family: var(--font-mono);
      font-size: 0.875em;
      background: color-mix(in srgb, var(--fill) 60%, transparent);
      border-radius: 0.3125rem;
      padding: 0.0625rem 0.3125rem;
    }
    .reply input[type="checkbox"] {
      appearance: none;
      width: 0.9375em;
      height: 0.9375em;
      margin: 0 0.375rem 0 0;
      vertical-align: -0.125em;
      border: 0.09375rem solid var(--text-secondary);
      border-radius: 0.25rem;
      background: var(--surface);
      position: relative;
      opacity: 1;
    }
    .reply input[type="checkbox"]:checked { border-color: var(--text-primary); background: var(--text-primary); }
    .reply input[type="checkbox"]:checked::before {
      content: "";
      position: absolute;
      left: 0.27em;
      top: 0.08em;
      width: 0.22em;
      height: 0.46em;
      border: solid var(--surface);
      border-width: 0 0.11em 0.11em 0;
      transform: rotate(45deg);
    }
    .reply li:has(> input[type="checkbox"]) { list-style: none; margin-left: -1.25rem; }
    .code {
      background: color-mix(in srgb, var(--fill) 60%, transparent);
      border: var(--hairline) solid var(--separator);
      border-radius: var(--radius-md);
      overflow: hidden;
    }
    .code-head { display: flex; align-items: center; justify-content: space-between; min-height: 2.25rem; padding: 0 0.375rem 0 0.875rem; }
    .code-lang { font-size: var(--type-caption-size); line-height: 1.3; color: var(--text-secondary); }
    .code pre {
      margin: 0;
      padding: 0 0.875rem 0.75rem;
      overflow-x: auto;
      white-space: pre;
      overflow-wrap: normal;
      font-family: var(--font-mono);
      font-size: var(--type-footnote-size);
      line-height: 1.5;
      tab-size: 4;
    }
    .code pre code { background: none; padding: 0; border-radius: 0; font-size: inherit; }
    button { font: inherit; color: inherit; }
    .code-copy {
      min-height: 2.25rem;
      padding: 0 0.5rem;
      border: 0;
      border-radius: 0.5rem;
      background: none;
      color: var(--text-secondary);
      font-size: var(--type-caption-size);
      cursor: pointer;
      transition: color var(--motion-snappy);
    }
    .code-copy.is-done, .act.is-done { color: var(--text-primary); }
    .state { margin: 0.5rem 0 0; font-size: var(--type-footnote-size); line-height: 1.3; color: var(--text-secondary); }
    .state-failed { display: flex; gap: 0.375rem; align-items: flex-start; color: var(--danger); }
    .state-failed svg { flex: none; width: 1.125em; height: 1.125em; margin-top: 0.0625rem; }
    .actions { display: flex; align-items: center; margin: 0.25rem 0 0 -0.625rem; color: var(--text-secondary); }
    .act {
      display: inline-flex;
      align-items: center;
      justify-content: center;
      gap: 0.25rem;
      min-width: 2.75rem;
      min-height: 2.75rem;
      padding: 0 0.625rem;
      border: 0;
      border-radius: 0.625rem;
      background: none;
      color: var(--text-secondary);
      transition: color var(--motion-snappy);
    }
    button.act { cursor: pointer; }
    .act svg { width: var(--type-body-size); height: var(--type-body-size); }
    .act-label { font-size: var(--type-footnote-size); }
    .act:not(.is-done) .act-label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    .act.is-done .act-label { animation: rk-fade var(--motion-snappy) both; }
    .rating { display: inline-flex; align-items: center; gap: 0.375rem; padding: 0 0.625rem; font-size: var(--type-footnote-size); color: var(--text-secondary); }
    .rating svg { width: var(--type-body-size); height: var(--type-body-size); }
    .rating .glyph { fill: currentColor; }
    .glyph {
      fill: none;
      stroke: currentColor;
      stroke-width: 1.8;
      stroke-linecap: round;
      stroke-linejoin: round;
    }
    .glyph-defs { position: absolute; width: 0; height: 0; overflow: hidden; }
    button:hover { background: color-mix(in srgb, var(--fill) 70%, transparent); }
    button:focus-visible, .jump:focus-visible, .stamp:focus-visible { outline: 0.125rem solid var(--text-primary); outline-offset: 0.125rem; }
    .code pre:focus-visible, .table-scroll:focus-visible { outline: 0.125rem solid var(--text-primary); outline-offset: -0.125rem; }
    .jump {
      position: fixed;
      left: 50%;
      bottom: 1.25rem;
      transform: translateX(-50%);
      padding: 0.5rem 1rem;
      border: var(--hairline) solid var(--separator);
      border-radius: 999px;
      background: var(--surface-elevated);
      box-shadow: var(--elevation-e2);
      color: var(--text-primary);
      font-size: var(--type-footnote-size);
      font-weight: 500;
      cursor: pointer;
      animation: rk-fade var(--motion-snappy) both;
    }
    .jump:hover { background: color-mix(in srgb, var(--surface-elevated) 90%, var(--text-primary)); }
    .jump[hidden], [hidden] { display: none; }
    .sr-only, .offscreen { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    .offscreen { left: -100vw; }
    @keyframes rk-appear { from { opacity: 0; transform: translateY(0.5rem); } }
    @keyframes rk-fade { from { opacity: 0; } }
    @media (prefers-reduced-motion: reduce) {
      :root { --motion-smooth: 150ms linear; --motion-snappy: 120ms linear; }
      .turn[data-recent] { animation-name: rk-fade; }
      html { scroll-behavior: auto; }
    }
    @media print {
      :root {
        color-scheme: light;
        --fill: #ebebf0;
        --surface: #ffffff;
        --text-primary: #000000;
        --text-secondary: #4a4a52;
        --danger: #b0241a;
        --separator: rgba(60, 60, 67, 0.4);
      }
      body { background: #ffffff; color: #000000; }
      .page { max-width: none; padding: 0; }
      .actions button, .meta button, .code-copy, .jump, .page-actions { display: none; }
      .meta > *, .actions > .stamp { opacity: 1; }
      .turn[data-recent] { animation: none; }
      .chunk { content-visibility: visible; }
      .code, .bubble { break-inside: avoid-page; }
      .code pre { white-space: pre-wrap; overflow: visible; overflow-wrap: anywhere; }
      .table-scroll { overflow: visible; }
      .reply table { width: 100%; }
      .reply th, .reply td { min-width: 0; max-width: none; padding: 0.25rem 0.375rem; overflow-wrap: anywhere; }
      /* A header word stays whole (its column is at least that wide); cells break long runs. */
      .reply th { overflow-wrap: break-word; }
    }
    """
}
