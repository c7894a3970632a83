import { invalidFilter } from './protocol.ts';

/*
 * SCIM filters (RFC 7644 section 3.4.2.2), the part identity providers send: comparisons of one
 * attribute with a value, `pr`, `and`, `or`, `not (...)` and parentheses. Okta and Microsoft Entra
 * ID ask `userName eq "..."`, `externalId eq "..."` and `displayName eq "..."`.
 */

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
export type FilterValue = string | number | boolean | null;

export type Filter =
  | { kind: 'compare'; attribute: string; op: CompareOp; value: FilterValue }
  | { kind: 'present'; attribute: string }
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'not'; filter: Filter };

const COMPARE_OPS = new Set<string>(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);

/** Longer filters are no identity provider's: refused before they are read. */
export const MAX_FILTER_LENGTH = 1000;

type Token = { kind: 'word'; text: string } | { kind: 'value'; value: FilterValue } | { kind: '(' | ')' };

/** Attribute names, with a schema URN before them and sub-attributes after a dot. */
const ATTRIBUTE = /^(?:urn:[A-Za-z0-9.:_-]+:)?[A-Za-z][A-Za-z0-9_$-]*(?:\.[A-Za-z][A-Za-z0-9_$-]*)?$/;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c });
      i++;
    } else if (c === '"') {
      // A JSON string: escapes as JSON has them.
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= text.length) throw invalidFilter('A string in the filter is not closed');
      try {
        tokens.push({ kind: 'value', value: JSON.parse(text.slice(i, end + 1)) as string });
      } catch {
        throw invalidFilter('A string in the filter is not valid');
      }
      i = end + 1;
    } else {
      let end = i;
      while (end < text.length && !/[\s()"]/.test(text[end] ?? '')) end++;
      const word = text.slice(i, end);
      if (word === 'true' || word === 'false') tokens.push({ kind: 'value', value: word === 'true' });
      else if (word === 'null') tokens.push({ kind: 'value', value: null });
      else if (/^-?\d+(\.\d+)?$/.test(word)) tokens.push({ kind: 'value', value: Number(word) });
      else tokens.push({ kind: 'word', text: word });
      i = end;
    }
  }
  return tokens;
}

/** Pure: the filter's tree, or a 400 `invalidFilter` naming what could not be read. */
export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter('The filter is too long');
  const tokens = tokenize(text);
  let at = 0;
  const peekWord = () => {
    const t = tokens[at];
    return t?.kind === 'word' ? t.text.toLowerCase() : undefined;
  };

  function orExpression(): Filter {
    let left = andExpression();
    while (peekWord() === 'or') {
      at++;
      left = { kind: 'or', left, right: andExpression() };
    }
    return left;
  }

  function andExpression(): Filter {
    let left = factor();
    while (peekWord() === 'and') {
      at++;
      left = { kind: 'and', left, right: factor() };
    }
    return left;
  }

  function factor(): Filter {
    const t = tokens[at];
    if (!t) throw invalidFilter('The filter ends too early');
    if (t.kind === '(') {
      at++;
      const inner = orExpression();
      if (tokens[at]?.kind !== ')') throw invalidFilter('A parenthesis in the filter is not closed');
      at++;
      return inner;
    }
    if (t.kind === 'word' && t.text.toLowerCase() === 'not' && tokens[at + 1]?.kind === '(') {
      at++;
      return { kind: 'not', filter: factor() };
    }
    if (t.kind !== 'word' || !ATTRIBUTE.test(t.text)) {
      throw invalidFilter('The filter must compare an attribute, as in userName eq "jane"');
    }
    at++;
    const op = tokens[at];
    const opText = op?.kind === 'word' ? op.text.toLowerCase() : undefined;
    if (opText === 'pr') {
      at++;
      return { kind: 'present', attribute: t.text };
    }
    if (!opText || !COMPARE_OPS.has(opText)) {
      throw invalidFilter(`Unknown or missing operator after ${t.text}`);
    }
    at++;
    const value = tokens[at];
    if (value?.kind !== 'value') throw invalidFilter(`${t.text} ${opText} needs a value`);
    at++;
    return { kind: 'compare', attribute: t.text, op: opText as CompareOp, value: value.value };
  }

  const filter = orExpression();
  if (at < tokens.length) throw invalidFilter('The filter has text after its end');
  return filter;
}

/** Pure: an attribute name without its schema URN, lower-cased (SCIM names are case-insensitive). */
export function attributeKey(attribute: string, schemaUrn: string): string {
  const lower = attribute.toLowerCase();
  const prefix = `${schemaUrn.toLowerCase()}:`;
  return lower.startsWith(prefix) ? lower.slice(prefix.length) : lower;
}
