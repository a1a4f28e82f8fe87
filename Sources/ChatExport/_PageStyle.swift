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
      --line-spacing: 0.1875rem;
      --elevation-e2: 0 0.25rem 0.75rem rgba(0, 0, 0, 0.12), 0 0.0625rem 0.1875rem rgba(0, 0, 0, 0.08);
      --hairline: 1px;
      --motion-smooth: 360ms cubic-bezier(0.2, 0.9, 0.25, 1);
      --motion-snappy: 180ms cubic-bezier(0.3, 0.7, 0.2, 1);
      --font-text: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      --font-mono: ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
    }
    @media (prefers-color-scheme: dark) {
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
      line-height: calc(1.3em + var(--line-spacing));
    }
    .page { max-width: 48rem; margin: 0 auto; padding: 1.25rem 1rem 5rem; }
    .page-head { margin: 0 0 0.5rem; }
    .page-head h1 { font: var(--type-title); margin: 0; overflow-wrap: anywhere; }
    .page-head p { margin: 0.25rem 0 0; color: var(--text-secondary); font-size: var(--type-footnote-size); }
    .thread { display: flex; flex-direction: column; gap: 0.75rem; }
    .day {
      margin: 1rem 0 0.25rem;
      text-align: center;
      font-size: var(--type-footnote-size);
      font-weight: 500;
      line-height: 1.3;
      color: var(--text-secondary);
    }
    .turn {
      animation: rk-appear var(--motion-smooth) both;
      min-width: 0;
      content-visibility: auto;
      contain-intrinsic-size: auto 12rem;
    }
    .turn-you { display: flex; justify-content: flex-end; }
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
    .reply p, .reply ul, .reply ol, .reply blockquote, .reply table, .reply .code, .reply hr { margin: 0 0 0.75rem; }
    .reply h1, .reply h2, .reply h3, .reply h4, .reply h5, .reply h6 { font-size: 1em; font-weight: 600; margin: 1rem 0 0.5rem; }
    .reply h1 { font-size: 1.25em; }
    .reply h2 { font-size: 1.125em; }
    .reply strong, .reply b, .reply th { font-weight: 600; }
    .reply ul, .reply ol { padding-left: 1.5rem; }
    .reply li > p { margin: 0 0 0.375rem; }
    .reply li > ul, .reply li > ol { margin: 0.25rem 0; }
    .reply a { color: inherit; text-decoration-thickness: 0.0625rem; text-underline-offset: 0.15em; }
    .reply img { max-width: 100%; }
    .reply blockquote { margin-left: 0; padding-left: 0.875rem; border-left: 0.1875rem solid var(--separator); color: var(--text-secondary); }
    .reply hr { border: 0; border-top: var(--hairline) solid var(--separator); }
    .reply table { display: block; max-width: 100%; overflow-x: auto; border-collapse: collapse; font-size: var(--type-footnote-size); }
    .reply th, .reply td { border: var(--hairline) solid var(--separator); padding: 0.375rem 0.625rem; text-align: left; }
    .reply th[align="center"], .reply td[align="center"] { text-align: center; }
    .reply th[align="right"], .reply td[align="right"] { text-align: right; }
    .reply code {
      font-family: var(--font-mono);
      font-size: 0.875em;
      background: color-mix(in srgb, var(--fill) 60%, transparent);
      border-radius: 0.3125rem;
      padding: 0.0625rem 0.3125rem;
    }
    .reply input[type="checkbox"] { margin: 0 0.375rem 0 0; vertical-align: -0.0625rem; }
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
    .thumb.is-chosen { color: var(--text-primary); }
    .thumb.is-chosen .glyph { fill: currentColor; }
    .glyph {
      fill: none;
      stroke: currentColor;
      stroke-width: 1.8;
      stroke-linecap: round;
      stroke-linejoin: round;
    }
    .glyph-defs { position: absolute; width: 0; height: 0; overflow: hidden; }
    button:hover { background: color-mix(in srgb, var(--fill) 70%, transparent); }
    button:focus-visible, .jump:focus-visible { outline: 0.125rem solid var(--text-primary); outline-offset: 0.125rem; }
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
    .jump[hidden], [hidden] { display: none; }
    .sr-only, .offscreen { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    .offscreen { left: -100vw; }
    @keyframes rk-appear { from { opacity: 0; transform: translateY(0.5rem); } }
    @keyframes rk-fade { from { opacity: 0; } }
    @media (prefers-reduced-motion: reduce) {
      :root { --motion-smooth: 150ms linear; --motion-snappy: 120ms linear; }
      .turn { animation-name: rk-fade; }
      html { scroll-behavior: auto; }
    }
    @media print {
      .actions button, .code-copy, .jump { display: none; }
      .turn { animation: none; content-visibility: visible; }
      .code pre { white-space: pre-wrap; }
    }
    """
}
