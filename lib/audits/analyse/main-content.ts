// The main content of a page (decisions.md "Audits", extraction_method): a single dominant
// <article>, else <main>, else [role=main], else the best block by a readability-style score,
// else the body; in every case without scripts, navigation, sidebars, page headers and footers,
// forms, hidden parts and identifiable boilerplate (comments, share bars, related posts, link
// lists). One pass indexes the page with text sizes; the cascade and the scoring read that index.
import type { AuditContent, EXTRACTION_METHODS } from "../../schemas/audits";
import { type Element, INLINE, isElement, isHidden, type ParentNode, type ParsedPage, SKIP, textOf, tokens, walk } from "./dom";
import { classWeight, isBoilerplateByName, isNotLeadByName } from "./hints";
import { countWords } from "./words";

export type ExtractionMethod = (typeof EXTRACTION_METHODS)[number];

export type MainContent = {
  method: ExtractionMethod;
  /** The elements the main content is made of, in document order (several only for content_score). */
  roots: ParentNode[];
  /** Its text, whitespace collapsed. */
  text: string;
  /**
   * The lead: the first real paragraph of the main content (not a heading, byline, dateline,
   * kicker, caption, share bar or ad label), a leading date stamp cut; null when there is none.
   */
  lead: string | null;
  blocks: number;
  codeBlocks: number;
  tables: number;
  /** h1–h6 in the main content, in document order. */
  headings: Element[];
  /** <a href> in the main content. */
  anchors: Set<Element>;
  /** The roots and all their ancestors: containers of the main content, never navigation. */
  containers: Set<ParentNode>;
};

/** Never content: not rendered as text, or not the page's text (controls, embeds, the head). */
const NOT_CONTENT = new Set([
  "script", "style", "noscript", "template", "svg", "math", "iframe", "object", "embed", "canvas", "video", "audio",
  "select", "option", "optgroup", "datalist", "textarea", "input", "button", "head", "title", "meta", "link", "base",
]);

/** Elements that count as a block when they hold text themselves (headings and table cells do not). */
const BLOCK_TAGS = new Set([
  "p", "li", "blockquote", "pre", "dd", "dt", "figcaption", "address", "div", "section", "article", "main", "body", "center",
  "details", "summary",
]);

/** Blocks whose own text is scored (Readability scores p, td, pre, section, h2–h6 and text-only divs). */
const SCORED_TAGS = new Set(["p", "pre", "td", "blockquote", "div", "section", "article", "main", "center", "h2", "h3", "h4", "h5", "h6"]);

const LINK_LIST_TAGS = new Set(["ul", "ol", "dl", "div", "section", "menu"]);
const HEADING = /^h[1-6]$/;
const ALWAYS_STRIPPED_ROLES = new Set(["navigation", "menu", "menubar", "complementary"]);
const GUARDED_ROLES = new Set(["banner", "contentinfo", "search", "dialog", "alertdialog"]);

/** The article or main element must hold this share of the page's content text to be taken. */
const MIN_SHARE = 0.25;
/** Among top-level articles, the dominant one holds this share of their text. */
const DOMINANT_ARTICLE_SHARE = 0.6;
const MIN_SCORED_CHARS = 25;
/** An element whose text is at least this much h1 is a title block. */
const TITLE_SHARE = 0.4;

// How a subtree is left out of the content: not at all; always (nav, aside, navigation roles);
// unless it wraps a main element, or holds an h1 and is inside an article or main element or is
// mostly that h1 (page header and footer landmarks, dialogs, boilerplate by name: a WordPress
// "entry-header" holds the title, a site header the logo among its links); a form unless it holds
// an h1 or half the page's text (ASP.NET wraps whole pages in one).
const KEEP = 0;
const ALWAYS = 1;
const GUARDED = 2;
const FORM = 3;

type IndexContext = { parent: number; block: number; inAnchor: boolean; inH1: boolean; sectioned: boolean; inArticle: boolean; inMain: boolean };

/** The page's content elements in document order with their text sizes; index 0 is the page root. */
type Index = {
  nodes: ParentNode[];
  tag: string[];
  parent: number[];
  of: Map<ParentNode, number>;
  /** Whether the element or an ancestor is left out. */
  dead: Uint8Array;
  /** Collapsed text length of the subtree (what is left out not counted), and of its link text. */
  len: Float64Array;
  link: Float64Array;
  /** <a href> in the subtree. */
  anchorCount: Uint32Array;
  /** Text whose nearest block is this element, and its commas (the scoring units). */
  own: Float64Array;
  ownCommas: Float64Array;
  /** Visible text of the whole page, nothing left out but what is never content. */
  visible: number;
  /** Whether the subtree is mostly an h1 (a title, not a site header with a logo among links). */
  titled: Uint8Array;
  /** Top-level <article> elements (not inside another article). */
  articles: number[];
  mains: number[];
  roleMains: number[];
};

const COMMAS = new Set([0x2c, 0x060c, 0xfe50, 0xfe10, 0xfe11, 0x2e41, 0x2e34, 0x2e32, 0xff0c, 0x3001]);

function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x3000 || code === 0x200b;
}

/** Length once whitespace runs are collapsed and the ends trimmed, and the commas in it. */
function measure(data: string): { length: number; commas: number } {
  let length = 0;
  let commas = 0;
  let pendingSpace = false;
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    if (isSpace(code)) {
      pendingSpace = length > 0;
      continue;
    }
    if (pendingSpace) {
      length++;
      pendingSpace = false;
    }
    length++;
    if (COMMAS.has(code)) commas++;
  }
  return { length, commas };
}

function strippedKind(el: Element, roles: string[], sectioned: boolean, byName: boolean): number {
  const name = el.name;
  if (name === "nav" || name === "aside") return ALWAYS;
  if (roles.includes("main") || name === "main" || name === "article" || name === "body") return KEEP;
  if (roles.some((role) => ALWAYS_STRIPPED_ROLES.has(role))) return ALWAYS;
  if (name === "form") return FORM;
  if ((name === "header" || name === "footer") && !sectioned) return GUARDED;
  if (roles.some((role) => GUARDED_ROLES.has(role))) return GUARDED;
  return byName && isBoilerplateByName(el.attribs) ? GUARDED : KEEP;
}

function buildIndex(root: ParentNode, byName: boolean): Index {
  const nodes: ParentNode[] = [root];
  const tag: string[] = [root.type === "root" ? "#document" : (root as Element).name];
  const parent: number[] = [-1];
  const kind: number[] = [KEEP];
  const inMain: number[] = [0];
  const isAnchor: number[] = [0];
  const direct: number[] = [0];
  const directLink: number[] = [0];
  const directH1: number[] = [0];
  const own: number[] = [0];
  const ownCommas: number[] = [0];
  const articles: number[] = [];
  const mains: number[] = [];
  const roleMains: number[] = [];

  const start: IndexContext = { parent: 0, block: 0, inAnchor: false, inH1: false, sectioned: false, inArticle: false, inMain: false };
  walk<IndexContext>(
    root,
    start,
    (el, ctx) => {
      const name = el.name;
      if (NOT_CONTENT.has(name) || isHidden(el)) return SKIP;
      const i = nodes.length;
      nodes.push(el);
      tag.push(name);
      parent.push(ctx.parent);
      const roles = tokens(el.attribs.role);
      kind.push(strippedKind(el, roles, ctx.sectioned, byName));
      inMain.push(ctx.inMain ? 1 : 0);
      const anchor = name === "a" && el.attribs.href !== undefined;
      isAnchor.push(anchor ? 1 : 0);
      direct.push(0);
      directLink.push(0);
      directH1.push(0);
      own.push(0);
      ownCommas.push(0);
      if (name === "article" && !ctx.inArticle) articles.push(i);
      if (name === "main") mains.push(i);
      else if (roles.includes("main")) roleMains.push(i);
      const sectioning = name === "article" || name === "section";
      const mainLike = name === "article" || name === "main" || roles.includes("main");
      return {
        parent: i,
        block: INLINE.has(name) ? ctx.block : i,
        inAnchor: ctx.inAnchor || anchor,
        inH1: ctx.inH1 || name === "h1",
        sectioned: ctx.sectioned || sectioning,
        inArticle: ctx.inArticle || name === "article",
        inMain: ctx.inMain || mainLike,
      };
    },
    (data, ctx) => {
      const { length, commas } = measure(data);
      if (length === 0) return;
      direct[ctx.parent]! += length;
      if (ctx.inAnchor) directLink[ctx.parent]! += length;
      if (ctx.inH1) directH1[ctx.parent]! += length;
      own[ctx.block]! += length;
      ownCommas[ctx.block]! += commas;
    },
  );

  const n = nodes.length;
  // All visible text and h1s per subtree, before anything is left out (the guards read them).
  const all = Float64Array.from(direct);
  const h1s = new Uint32Array(n);
  const h1Text = Float64Array.from(directH1);
  const mainsWithin = new Uint32Array(n);
  for (const i of [...mains, ...roleMains]) mainsWithin[i] = 1;
  for (let i = n - 1; i > 0; i--) {
    if (tag[i] === "h1") h1s[i]!++;
    all[parent[i]!]! += all[i]!;
    h1s[parent[i]!]! += h1s[i]!;
    h1Text[parent[i]!]! += h1Text[i]!;
    mainsWithin[parent[i]!]! += mainsWithin[i]!;
  }
  const titled = new Uint8Array(n);
  for (let i = 1; i < n; i++) titled[i] = h1s[i]! > 0 && h1Text[i]! >= TITLE_SHARE * all[i]! ? 1 : 0;
  const dead = new Uint8Array(n);
  for (let i = 1; i < n; i++) {
    const k = kind[i]!;
    const stripped =
      k === ALWAYS ||
      (k === GUARDED && mainsWithin[i] === 0 && (h1s[i] === 0 || !(inMain[i] || titled[i]))) ||
      (k === FORM && h1s[i] === 0 && all[i]! < 0.5 * all[0]!);
    dead[i] = stripped || dead[parent[i]!] ? 1 : 0;
  }
  const len = new Float64Array(n);
  const link = new Float64Array(n);
  const anchorCount = new Uint32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (dead[i]) continue;
    len[i]! += direct[i]!;
    link[i]! += directLink[i]!;
    anchorCount[i]! += isAnchor[i]!;
    const p = parent[i]!;
    if (p >= 0) {
      len[p]! += len[i]!;
      link[p]! += link[i]!;
      anchorCount[p]! += anchorCount[i]!;
    }
  }
  const of = new Map<ParentNode, number>();
  for (let i = 0; i < n; i++) of.set(nodes[i]!, i);
  return {
    nodes,
    tag,
    parent,
    of,
    dead,
    len,
    link,
    anchorCount,
    own: Float64Array.from(own),
    ownCommas: Float64Array.from(ownCommas),
    titled,
    visible: all[0]!,
    articles: articles.filter((i) => !dead[i]),
    mains: mains.filter((i) => !dead[i]),
    roleMains: roleMains.filter((i) => !dead[i]),
  };
}

function largest(index: Index, candidates: number[]): number {
  let best = -1;
  for (const i of candidates) if (best < 0 || index.len[i]! > index.len[best]!) best = i;
  return best;
}

function dominantArticle(index: Index): number {
  const best = largest(index, index.articles);
  if (best < 0) return -1;
  let sum = 0;
  for (const i of index.articles) sum += index.len[i]!;
  return index.len[best]! >= DOMINANT_ARTICLE_SHARE * sum ? best : -1;
}

function holdsEnough(index: Index, i: number): boolean {
  return i >= 0 && index.len[i]! > 0 && index.len[i]! >= MIN_SHARE * index.len[0]!;
}

// Readability's starting scores by tag (_initializeNode).
const TAG_SCORES = new Map<string, number>([
  ["div", 5], ["pre", 3], ["td", 3], ["blockquote", 3],
  ["address", -3], ["ol", -3], ["ul", -3], ["dl", -3], ["dd", -3], ["dt", -3], ["li", -3], ["form", -3],
  ["h1", -5], ["h2", -5], ["h3", -5], ["h4", -5], ["h5", -5], ["h6", -5], ["th", -5],
]);

function linkDensity(index: Index, i: number): number {
  return index.len[i]! > 0 ? index.link[i]! / index.len[i]! : 0;
}

function liveChildren(index: Index, i: number): number[] {
  const out: number[] = [];
  for (const child of index.nodes[i]!.children) {
    const c = index.of.get(child as ParentNode);
    if (c !== undefined && !index.dead[c]) out.push(c);
  }
  return out;
}

/**
 * Mozilla Readability's _grabArticle scoring on the index: each block with 25+ characters of its
 * own text scores 1 + commas + one per 100 characters (at most 3) for its parent, half for its
 * grandparent and a third per level above, up to five levels; candidates start from a tag score
 * and the class/id weight and end scaled by (1 - link density). Returns the chosen elements (the
 * top candidate, the siblings that qualify and a title block before it) or null when nothing
 * scored or the winner is the page root.
 */
function scoreBlocks(index: Index): number[] | null {
  const n = index.nodes.length;
  const score = new Float64Array(n).fill(Number.NaN);
  const touch = (i: number) => {
    if (Number.isNaN(score[i]!)) {
      const node = index.nodes[i]!;
      score[i] = (TAG_SCORES.get(index.tag[i]!) ?? 0) + (isElement(node) ? classWeight(node.attribs) : 0);
    }
  };
  for (let i = 1; i < n; i++) {
    if (index.dead[i] || !SCORED_TAGS.has(index.tag[i]!) || index.own[i]! < MIN_SCORED_CHARS) continue;
    const points = 1 + index.ownCommas[i]! + Math.min(Math.floor(index.own[i]! / 100), 3);
    let p = index.parent[i]!;
    for (let level = 0; level < 5 && p >= 0; level++, p = index.parent[p]!) {
      touch(p);
      score[p]! += points / (level === 0 ? 1 : level === 1 ? 2 : level * 3);
    }
  }
  const candidates: number[] = [];
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(score[i]!)) continue;
    score[i] = score[i]! * (1 - linkDensity(index, i));
    candidates.push(i);
  }
  if (candidates.length === 0) return null;
  candidates.sort((a, b) => score[b]! - score[a]!);
  let top = candidates[0]!;
  if (score[top]! <= 0) return null;

  // When several near-best candidates share an ancestor, the content is that ancestor.
  const alternatives = candidates
    .slice(1, 5)
    .filter((c) => score[c]! / score[top]! >= 0.75)
    .map((c) => {
      const ancestors = new Set<number>();
      for (let p = index.parent[c]!; p >= 0; p = index.parent[p]!) ancestors.add(p);
      return ancestors;
    });
  if (alternatives.length >= 3) {
    for (let p = index.parent[top]!; p > 0; p = index.parent[p]!) {
      if (alternatives.filter((set) => set.has(p)).length >= 3) {
        top = p;
        break;
      }
    }
  }
  touch(top);
  // Climb while the parent scores better (content split over sibling blocks).
  let lastScore = score[top]!;
  const threshold = lastScore / 3;
  for (let p = index.parent[top]!; p > 0; p = index.parent[p]!) {
    if (Number.isNaN(score[p]!)) continue;
    if (score[p]! < threshold) break;
    if (score[p]! > lastScore) {
      top = p;
      break;
    }
    lastScore = score[p]!;
  }
  for (let p = index.parent[top]!; p > 0 && liveChildren(index, p).length === 1; p = index.parent[p]!) top = p;
  if (top === 0) return null;

  const topNode = index.nodes[top] as Element;
  const topClass = topNode.attribs.class ?? "";
  const siblingThreshold = Math.max(10, score[top]! * 0.2);
  return liveChildren(index, index.parent[top]!).filter((s) => {
    if (s === top) return true;
    // The title above the content (Readability leaves it to its title extraction).
    if (s < top && index.titled[s]) return true;
    const sibling = index.nodes[s] as Element;
    const bonus = topClass !== "" && sibling.attribs.class === topClass ? score[top]! * 0.2 : 0;
    if (!Number.isNaN(score[s]!) && score[s]! + bonus >= siblingThreshold) return true;
    if (index.tag[s] !== "p") return false;
    const length = index.len[s]!;
    const density = linkDensity(index, s);
    if (length > 80) return density < 0.25;
    return length > 0 && density === 0 && /\.( |$)/.test(textOf(sibling));
  });
}

function choose(index: Index): { method: ExtractionMethod; roots: number[] } {
  const article = dominantArticle(index);
  if (holdsEnough(index, article)) return { method: "article", roots: [article] };
  const main = largest(index, index.mains);
  if (holdsEnough(index, main)) return { method: "main", roots: [main] };
  const roleMain = largest(index, index.roleMains);
  if (holdsEnough(index, roleMain)) return { method: "role_main", roots: [roleMain] };
  const scored = scoreBlocks(index);
  if (scored) return { method: "content_score", roots: scored };
  return { method: "body", roots: [0] };
}

/** Readability's _isDataTable: a table of data rather than of layout. */
export function isDataTable(table: Element): boolean {
  const role = (table.attribs.role ?? "").toLowerCase();
  if (role === "presentation" || role === "none" || table.attribs.datatable === "0") return false;
  if (table.attribs.summary) return true;
  let caption = false;
  let headers = false;
  let nested = false;
  let rows = 0;
  let columns = 0;
  walk(table, null, (el) => {
    switch (el.name) {
      case "table":
        nested = true;
        return SKIP;
      case "caption":
        if (el.children.length > 0) caption = true;
        return SKIP;
      case "th":
      case "thead":
      case "tfoot":
      case "col":
      case "colgroup":
        headers = true;
        return null;
      case "tr": {
        rows++;
        let cells = 0;
        for (const cell of el.children) {
          if (isElement(cell) && (cell.name === "td" || cell.name === "th")) cells += Math.max(1, Number.parseInt(cell.attribs.colspan ?? "1", 10) || 1);
        }
        columns = Math.max(columns, cells);
        return null;
      }
      default:
        return null;
    }
  });
  if (caption || headers) return true;
  if (nested || rows === 1 || columns === 1) return false;
  return rows >= 10 || columns > 4 || rows * columns > 10;
}

function rawText(el: Element): string {
  const parts: string[] = [];
  walk(el, null, () => null, (data) => parts.push(data));
  return parts.join("");
}

type CollectContext = { owner: ParentNode; pre: boolean; notLead: boolean; link: boolean };

/** Elements whose text is never an article's lead: titles, captions, quotes, lists, code, bylines' markup. */
const NOT_LEAD_TAGS = new Set([
  "h1", "h2", "h3", "h4", "h5", "h6", "hgroup", "footer", "figure", "figcaption", "caption", "th", "address",
  "blockquote", "q", "li", "dt", "dd", "pre", "code", "time", "label", "legend", "summary", "cite",
]);
const AUTHOR_PROPS = /^(?:author|creator|contributor|datepublished|datemodified|datecreated|dateline|publisher)$/i;

/**
 * A lead says something: at least this many words (more for text outside a <p>, where labels and
 * fields of forums and listings sit), a sentence's end, mostly not links.
 */
const LEAD_MIN_WORDS = 8;
const BLOCK_LEAD_MIN_WORDS = 15;
const SENTENCE = /[.!?\u3002\uff01\uff1f\u2026](?:["'\u201d\u2019\u00bb)\]]*)(?:\s|$)|[\u3002\uff01\uff1f]/;
const BYLINE = /^(?:(?:posted|written|words|text|reporting|photos?|story)\s+)?(?:by|von|par|por|door|av|af|przez|autor(?:in)?:?)\s/i;
const BYLINE_MAX_WORDS = 14;
/** Notices that open many posts and are not what they are about. */
const NOTICE = /\baffiliate links?\b|\bmay earn (?:a )?(?:small )?commission\b|\b(?:sponsored|paid) (?:post|content|partnership)\b/i;
const MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
/** A date stamp (and time) before the lead's text, ended by a dash, bar or colon: "Feb. 23, 2015 -- ". */
const DATE_PREFIX = new RegExp(
  `^(?:${MONTH}\\s+\\d{1,2},?\\s+\\d{4}|\\d{1,2}\\.?\\s+${MONTH},?\\s+\\d{4}|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}[./]\\d{1,2}[./]\\d{2,4})` +
    `(?:,?\\s+\\d{1,2}[:.]\\d{2}(?:\\s*[ap]\\.?m\\.?)?)?\\s*(?:--|\u2014|\u2013|-|\\||:)\\s+`,
  "i",
);

/** A block's text as the lead: cut of a leading date stamp, or null when it is not a real paragraph. */
function leadOf(text: string, linkChars: number, paragraph: boolean): string | null {
  if (text.length === 0 || linkChars > 0.5 * text.length) return null;
  const body = text.replace(DATE_PREFIX, "");
  const words = countWords(body);
  if (words < (paragraph ? LEAD_MIN_WORDS : BLOCK_LEAD_MIN_WORDS) || !SENTENCE.test(body)) return null;
  if ((BYLINE.test(body) && words <= BYLINE_MAX_WORDS) || NOTICE.test(body)) return null;
  return body;
}

/** One walk over the chosen elements: text, blocks, code blocks, tables, headings and links. */
function collect(index: Index, method: ExtractionMethod, rootIds: number[]): MainContent {
  const roots = rootIds.map((i) => index.nodes[i]!);
  let rootsLen = 0;
  for (const i of rootIds) rootsLen += index.len[i]!;
  const parts: string[] = [];
  const owners = new Set<ParentNode>();
  const headings: Element[] = [];
  const anchors = new Set<Element>();
  let codeBlocks = 0;
  let tables = 0;
  let lastOwner: ParentNode | null = null;
  // Runs of one block's text that could be a lead, in document order (a container's own text
  // between its child blocks is a run of its own), and how much of each is link text.
  const runs: Array<{ owner: ParentNode; parts: string[]; linkChars: number }> = [];

  // A list or box that is mostly links and a small part of the content: related posts, tag
  // clouds, tables of contents.
  const isLinkList = (i: number) =>
    LINK_LIST_TAGS.has(index.tag[i]!) && index.anchorCount[i]! >= 3 && index.link[i]! > 0.5 * index.len[i]! && index.len[i]! < 0.3 * rootsLen;

  // Not the lead: a title, caption, byline and the like, unless it holds half the content (a wrapper).
  const notLead = (el: Element, i: number) =>
    !isRoot.has(el) &&
    (NOT_LEAD_TAGS.has(el.name) || isNotLeadByName(el.attribs) || tokens(el.attribs.rel).includes("author") || AUTHOR_PROPS.test(el.attribs.itemprop ?? "")) &&
    (HEADING.test(el.name) || index.len[i]! < 0.5 * rootsLen);
  const enter = (el: Element, ctx: CollectContext): CollectContext | typeof SKIP => {
    const i = index.of.get(el);
    if (i === undefined || index.dead[i] || (!isRoot.has(el) && isLinkList(i))) return SKIP;
    const name = el.name;
    const inner = { notLead: ctx.notLead || notLead(el, i), link: ctx.link || (name === "a" && el.attribs.href !== undefined) };
    if (HEADING.test(name)) headings.push(el);
    else if (name === "a" && el.attribs.href !== undefined) anchors.add(el);
    else if (name === "br") {
      parts.push(" ");
      const run = runs.at(-1);
      if (run?.owner === ctx.owner) run.parts.push(" ");
    }
    else if (name === "table" && isDataTable(el)) tables++;
    else if (name === "pre" && !ctx.pre) codeBlocks++;
    else if (name === "code" && !ctx.pre && /\S[^\S\n]*\n\s*\S/.test(rawText(el))) codeBlocks++;
    if (INLINE.has(name)) return { ...ctx, ...inner };
    return { owner: el, pre: ctx.pre || name === "pre", ...inner };
  };
  const onText = (data: string, ctx: CollectContext) => {
    if (ctx.owner !== lastOwner) {
      parts.push(" ");
      lastOwner = ctx.owner;
    }
    parts.push(data);
    if (!owners.has(ctx.owner) && /\S/.test(data)) owners.add(ctx.owner);
    if (ctx.notLead) return;
    let run = runs.at(-1);
    if (run?.owner !== ctx.owner) {
      if (!/\S/.test(data)) return;
      runs.push((run = { owner: ctx.owner, parts: [], linkChars: 0 }));
    }
    run!.parts.push(data);
    if (ctx.link) run!.linkChars += measure(data).length;
  };
  const isRoot = new Set(roots);
  for (const root of roots) {
    // The root itself is read too (a title block may be an h1), but never cut as a link list.
    const first: CollectContext = { owner: root, pre: false, notLead: false, link: false };
    const start = isElement(root) ? enter(root, first) : first;
    if (start !== SKIP) walk(root, start, enter, onText);
  }
  // The first paragraph that is a lead; where no <p> is, the first block that is (as Readability
  // takes its excerpt from the first <p>, and div-only pages have none).
  let lead: string | null = null;
  let firstBlock: string | null = null;
  for (const run of runs) {
    const paragraph = isElement(run.owner) && run.owner.name === "p";
    if (!paragraph && firstBlock !== null) continue;
    const text = leadOf(run.parts.join("").replace(/\s+/g, " ").trim(), run.linkChars, paragraph);
    if (text === null) continue;
    if (paragraph) {
      lead = text;
      break;
    }
    firstBlock = text;
  }
  lead ??= firstBlock;

  let blocks = 0;
  for (const owner of owners) {
    const name = owner.type === "root" ? "body" : (owner as Element).name;
    if (BLOCK_TAGS.has(name)) blocks++;
  }
  const containers = new Set<ParentNode>();
  for (const root of roots) {
    for (let node: ParentNode | null = root; node !== null; node = node.parent) containers.add(node);
  }
  return {
    method,
    roots,
    text: parts.join("").replace(/\s+/g, " ").trim(),
    lead,
    blocks,
    codeBlocks,
    tables,
    headings,
    anchors,
    containers,
  };
}

/** Below this many characters of main text on a page with text, class and id names are distrusted. */
const RETRY_BELOW_CHARS = 140;
const RETRY_MIN_PAGE_CHARS = 500;

export function extractMainContent(page: ParsedPage): MainContent {
  const index = buildIndex(page.root, true);
  const found = choose(index);
  const first = collect(index, found.method, found.roots);
  if (first.text.length >= RETRY_BELOW_CHARS || index.visible < RETRY_MIN_PAGE_CHARS) return first;
  // Names stripped (nearly) everything, e.g. a page-wide wrapper whose class says "sidebar":
  // read the page again without them, as Readability retries without its unlikely-candidate rule.
  const plain = buildIndex(page.root, false);
  const again = choose(plain);
  const second = collect(plain, again.method, again.roots);
  return second.text.length > first.text.length ? second : first;
}

export const EXCERPT_CHARS = 300;

/** The first `max` characters (code points, so no half surrogate pair). */
export function excerptOf(text: string, max = EXCERPT_CHARS): string {
  if (text.length <= max) return text;
  let out = "";
  let count = 0;
  for (const char of text) {
    if (count++ === max) break;
    out += char;
  }
  return out.trimEnd();
}

/**
 * The figures of the main content. The excerpt is the lead (its first 300 characters), else the
 * page's description, else the start of the main text: as Readability's excerpt, a paragraph a
 * reader would quote, not the section label, title and byline that open the content.
 */
export function contentFigures(
  main: MainContent,
  description: string | null = null,
): Pick<AuditContent, "extraction_method" | "word_count" | "blocks" | "code_blocks" | "tables" | "excerpt"> {
  return {
    extraction_method: main.method,
    word_count: countWords(main.text),
    blocks: main.blocks,
    code_blocks: main.codeBlocks,
    tables: main.tables,
    excerpt: excerptOf(main.lead ?? description ?? main.text),
  };
}
