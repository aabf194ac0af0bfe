import { escapeHtml as e } from '../../format/escape-html.ts';
import {
  HTTP_METHODS,
  type JsonSchema,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
} from './openapi-types.ts';

const ACCESS_LABEL: Record<OperationObject['x-evident-access'], string> = {
  public: 'no key',
  key: 'API key',
  admin: 'admin key',
  scim: 'SCIM token',
  browser: 'browser sign-in',
};

/** Inline code spans the descriptions use (`x`), after escaping, so no markup from the document gets through. */
const prose = (text: string | undefined) => (text ? e(text).replace(/`([^`]+)`/g, '<code>$1</code>') : '');

const anchor = (op: OperationObject) => `op-${op.operationId.replace(/[^A-Za-z0-9_-]/g, '-')}`;

const schemaBlock = (schema: JsonSchema) => `<pre>${e(JSON.stringify(schema, null, 2))}</pre>`;

function contentBlocks(content: Record<string, MediaTypeObject> | undefined): string {
  if (!content) return '';
  return Object.entries(content)
    .map(([type, media]) => `<div class="media"><span class="type">${e(type)}</span>${schemaBlock(media.schema)}</div>`)
    .join('');
}

function parametersTable(params: ParameterObject[] | undefined): string {
  if (!params?.length) return '';
  const rows = params
    .map(
      (p) =>
        `<tr><td><code>${e(p.name)}</code></td><td>${e(p.in)}</td><td>${p.required ? 'required' : 'optional'}</td><td>${prose(p.description)}</td></tr>`,
    )
    .join('');
  return `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th></th><th>description</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function operationSection(method: string, path: string, op: OperationObject): string {
  const body = op.requestBody
    ? `<h4>Request body</h4>${prose(op.requestBody.description)}${contentBlocks(op.requestBody.content)}`
    : '';
  const responses = Object.entries(op.responses)
    .map(
      ([status, r]) =>
        `<div class="response"><span class="status s${e(status.charAt(0))}">${e(status)}</span> ${prose(r.description)}${contentBlocks(r.content)}</div>`,
    )
    .join('');
  return `<section class="op" id="${e(anchor(op))}">
<h3><span class="method ${e(method)}">${e(method.toUpperCase())}</span> <code>${e(path)}</code> <span class="access ${e(op['x-evident-access'])}">${e(ACCESS_LABEL[op['x-evident-access']])}</span></h3>
<p class="summary">${prose(op.summary)}</p>${op.description ? `<p>${prose(op.description)}</p>` : ''}
${parametersTable(op.parameters)}${body}<h4>Responses</h4>${responses}
</section>`;
}

/** Operations grouped by their (first) tag, in the document's tag order. */
function byTag(document: OpenApiDocument): Map<string, [string, string, OperationObject][]> {
  const groups = new Map(document.tags.map((tag) => [tag.name, [] as [string, string, OperationObject][]]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)?.push([method, path, op]);
    }
  }
  return groups;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
main{max-width:980px;margin:0 auto;padding:24px}nav{columns:2;font-size:14px}nav p{break-inside:avoid;margin-top:0}nav a{text-decoration:none}
h2{border-bottom:2px solid #ddd;padding-bottom:4px;margin-top:40px}.op{background:#fff;border:1px solid #e3e3e3;border-radius:6px;padding:4px 16px;margin:16px 0}
.method{display:inline-block;min-width:58px;text-align:center;border-radius:4px;color:#fff;font-size:13px;padding:1px 6px}
.get{background:#2f7d32}.post{background:#1565c0}.put,.patch{background:#8e6c00}.delete{background:#b3261e}
.access{font-size:12px;border:1px solid #bbb;border-radius:10px;padding:0 8px;font-weight:normal;color:#555}.access.admin{border-color:#b3261e;color:#b3261e}
pre{background:#f3f3f3;padding:8px;overflow:auto;font-size:12px;max-height:360px}.type{font-family:monospace;font-size:13px;color:#555}
.status{font-weight:bold;font-family:monospace}.s2{color:#2f7d32}.s4,.s5{color:#b3261e}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}`;

/** The OpenAPI document as one readable HTML page, rendered on the server: no scripts and nothing fetched. */
export function renderDocsHtml(document: OpenApiDocument): string {
  const groups = byTag(document);
  const descriptions = new Map(document.tags.map((tag) => [tag.name, tag.description]));
  const nav = [...groups]
    .map(
      ([tag, ops]) =>
        `<p><strong>${e(tag)}</strong><br>${ops.map(([m, p, op]) => `<a href="#${e(anchor(op))}">${e(m.toUpperCase())} ${e(p)}</a>`).join('<br>')}</p>`,
    )
    .join('');
  const sections = [...groups]
    .filter(([, ops]) => ops.length > 0)
    .map(
      ([tag, ops]) =>
        `<h2>${e(tag)}</h2><p>${prose(descriptions.get(tag))}</p>${ops.map(([m, p, op]) => operationSection(m, p, op)).join('')}`,
    )
    .join('');
  const schemes = Object.entries(document.components.securitySchemes)
    .map(([name, scheme]) => `<li><code>${e(name)}</code>: ${prose(scheme.description)}</li>`)
    .join('');
  const schemas = Object.entries(document.components.schemas)
    .map(([name, schema]) => `<h3 id="schema-${e(name)}">${e(name)}</h3>${schemaBlock(schema)}`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(document.info.title)} ${e(document.info.version)}</title><style>${STYLE}</style></head>
<body><main>
<h1>${e(document.info.title)} <small>${e(document.info.version)}</small></h1>
<p>${prose(document.info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${e(document.openapi)}).</p>
<h2>Authentication</h2><ul>${schemes}</ul>
<h2>Routes</h2><nav>${nav}</nav>
${sections}
<h2>Schemas</h2>${schemas}
</main></body></html>`;
}
