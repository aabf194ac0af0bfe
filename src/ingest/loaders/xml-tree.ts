import { Parser } from 'htmlparser2';

/** An XML element as the slide and OpenDocument loaders read it: local name, attributes as written, children. */
export interface XmlElement {
  /** The name without its prefix (`a:t` → `t`). */
  name: string;
  /** Attributes under their qualified names (`table:number-rows-repeated`). */
  attrs: Record<string, string>;
  children: XmlNode[];
}

/** An element, or a run of character data (entities and CDATA decoded). */
export type XmlNode = XmlElement | string;

const localName = (qualified: string): string => qualified.slice(qualified.indexOf(':') + 1);

/**
 * Parses one part into a small tree. The part has been through `scanXml` first (element count and nesting within
 * `ingest.*`), so the tree's size and the depth of any walk over it are bounded before this allocates anything.
 * Names are matched by local name: the prefixes (`a:`, `p:`, `text:`, `table:`) are the ones every producer writes,
 * and a reader that resolved namespaces would find the same elements in every file the tests and users bring.
 */
export function parseXml(part: Buffer): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const element: XmlElement = { name: localName(name), attrs, children: [] };
        stack.at(-1)?.children.push(element);
        stack.push(element);
      },
      ontext(text) {
        const parent = stack.at(-1);
        if (!parent) return;
        const last = parent.children.at(-1);
        // The tokenizer hands entities over as separate runs; one string per run of text keeps the tree small.
        if (typeof last === 'string') parent.children[parent.children.length - 1] = last + text;
        else parent.children.push(text);
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.write(part.toString('utf8'));
  parser.end();
  return root;
}

/** The element children of `element` named `name` (local name). */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== 'string' && child.name === name);
}

/** The first element child named `name`, or undefined. */
export function childNamed(element: XmlElement, name: string): XmlElement | undefined {
  for (const child of element.children) if (typeof child !== 'string' && child.name === name) return child;
  return undefined;
}

/** The first element named `name` at any depth under `element` (document order), or undefined. */
export function findElement(element: XmlElement, name: string): XmlElement | undefined {
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (child.name === name) return child;
    const found = findElement(child, name);
    if (found) return found;
  }
  return undefined;
}

/** Every element named `name` under `element`, in document order (not looking inside a match). */
export function findElements(element: XmlElement, name: string, into: XmlElement[] = []): XmlElement[] {
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (child.name === name) into.push(child);
    else findElements(child, name, into);
  }
  return into;
}

/**
 * An attribute by local name: `attr(cell, 'number-columns-repeated')` reads `table:number-columns-repeated`.
 * `prefixed` reads only a prefixed one (`r:id` beside a plain `id` on a PPTX `p:sldId`).
 */
export function attr(element: XmlElement, name: string, prefixed = false): string | undefined {
  if (!prefixed && element.attrs[name] !== undefined) return element.attrs[name];
  for (const [key, value] of Object.entries(element.attrs)) if (key.endsWith(`:${name}`)) return value;
  return undefined;
}
