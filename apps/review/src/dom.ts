/**
 * The page's one way to make elements. Every value from the log (node ids, hostnames,
 * refusal messages: written by callers) becomes a text node, never HTML: there is no
 * innerHTML anywhere in the page.
 */
type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | null | EventListener>;

export const h = <K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
};

const SVG = 'http://www.w3.org/2000/svg';

export const s = (tag: string, attributes: Attributes = {}, ...children: (Child | Child[])[]): SVGElement => {
  const element = document.createElementNS(SVG, tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
};

const setAttributes = (element: Element, attributes: Attributes): void => {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
};

const append = (element: Element, children: (Child | Child[])[]): void => {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
};

/** Replaces an element's children (text and nodes only). */
export const fill = (element: Element, ...children: (Child | Child[])[]): void => {
  element.replaceChildren();
  append(element, children);
};

export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as T;
};

export const shortToken = (token: string | null | undefined): string => (!token ? '' : token.length > 22 ? `${token.slice(0, 18)}…` : token);

export const formatTime = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', ' UTC');
