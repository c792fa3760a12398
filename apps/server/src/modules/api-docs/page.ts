import type { OpenApiDocument } from './openapi';

// GET /api/docs in a browser (issue 39: it was raw JSON): the same OpenAPI document as a readable
// page, written here from the document itself, so it can't drift from the JSON. Static HTML with one
// inline stylesheet and the app's own icon: no script, no font, nothing from another origin, so the app's CSP (`default-src
// 'self'`, inline styles allowed) serves it unchanged and it works offline.

/** Where the JSON document stays (and `/api/docs` itself for a client that does not ask for HTML). */
export const OPENAPI_JSON_PATH = '/api/docs/openapi.json';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

interface Operation {
  summary: string;
  security?: Array<Record<string, unknown>>;
  parameters: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content: Record<string, { schema: unknown }> }>;
}

/** A path's anchor id: letters, digits and dashes only. */
const anchorOf = (method: string, path: string) =>
  `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');

const schemaBlock = (label: string, schema: unknown) =>
  `<details><summary>${escapeHtml(label)}</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`;

function operationHtml(path: string, method: string, op: Operation): string {
  const params = op.parameters.length
    ? `<table><thead><tr><th>Parameter</th><th>In</th><th>Required</th></tr></thead><tbody>${op.parameters
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">No parameters.</p>';
  const body = op.requestBody
    ? schemaBlock('Request body (JSON schema)', op.requestBody.content['application/json']?.schema)
    : '';
  // Who may call it, from the operation's security (issue 41: the private routes are documented too).
  const who = op.security
    ? `<p class="muted">Needs the session cookie${Object.keys(op.security[0] ?? {}).includes('csrf') ? ' and the CSRF header' : ''}.</p>`
    : '';
  const ok = op.responses['200'];
  // A route that starts work answers 202 with its job (deploy, airdrop): documented as the 200 is.
  const accepted = op.responses['202'];
  const errors = Object.entries(op.responses)
    .filter(([status]) => status !== '200' && status !== '202')
    .map(([status, r]) => `<li><code>${escapeHtml(status)}</code> ${escapeHtml(r.description)}</li>`)
    .join('');
  return `<section class="op" id="${anchorOf(method, path)}">
<h2><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h2>
<p>${escapeHtml(op.summary)}</p>
${who}
${params}
${body}
${ok ? schemaBlock('200 response (JSON schema)', ok.content['application/json']?.schema) : ''}
${accepted ? schemaBlock('202 response (JSON schema)', accepted.content['application/json']?.schema) : ''}
<ul class="errors">${errors}</ul>
</section>`;
}

const STYLE = `
:root { color-scheme: dark light; --bg: #0f1115; --fg: #e6e8ee; --muted: #9aa3b2; --line: #2a2f3a; --accent: #4da3ff; }
@media (prefers-color-scheme: light) { :root { --bg: #fff; --fg: #1b1f27; --muted: #5b6472; --line: #dde1e8; --accent: #0a66c2; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 960px; margin: 0 auto; padding: 24px 16px 64px; }
h1 { font-size: 1.6rem; margin: 0 0 4px; }
h2 { font-size: 1.05rem; margin: 0 0 6px; overflow-wrap: anywhere; }
a { color: var(--accent); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
pre { overflow: auto; padding: 10px; border: 1px solid var(--line); border-radius: 6px; max-height: 420px; }
.muted { color: var(--muted); }
nav ul { columns: 2 260px; padding-left: 18px; }
.op { border-top: 1px solid var(--line); padding: 16px 0; }
.method { display: inline-block; min-width: 52px; padding: 1px 6px; border-radius: 4px; font-size: 0.8rem; text-align: center; color: #fff; background: #2f7d32; }
.method.post, .method.put { background: #8a5a00; }
.method.delete { background: #a12b2b; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { border: 1px solid var(--line); padding: 3px 10px; text-align: left; }
summary { cursor: pointer; color: var(--accent); margin: 4px 0; }
.errors { margin: 6px 0 0; padding-left: 18px; color: var(--muted); }
`;

/** The whole page (built once, like the JSON). */
export function renderApiDocsPage(doc: OpenApiDocument): string {
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
  );
  const index = ops
    .map(
      ({ path, method, op }) =>
        `<li><a href="#${anchorOf(method, path)}"><code>${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</code></a> <span class="muted">${escapeHtml(op.summary)}</span></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info.title)} · Ledgerpad</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(doc.info.title)}</h1>
<p class="muted">OpenAPI ${escapeHtml(doc.openapi)} · version ${escapeHtml(doc.info.version)} · the document as JSON: <a href="${OPENAPI_JSON_PATH}"><code>${OPENAPI_JSON_PATH}</code></a></p>
<p>${escapeHtml(doc.info.description)}</p>
<p class="muted">Errors answer <code>{ "error", "message" }</code> with a 4xx status. Paged lists take <code>?limit=&amp;offset=</code> and answer the total in <code>X-Total-Count</code>.</p>
<nav aria-label="Routes"><h2>${ops.length} routes</h2><ul>
${index}
</ul></nav>
${ops.map(({ path, method, op }) => operationHtml(path, method, op)).join('\n')}
</main>
</body>
</html>
`;
}
