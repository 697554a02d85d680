/**
 * A bundle's top-level constants declared `const` again. esbuild, when it bundles, declares every
 * module's top-level binding with `var` (all modules share one scope, and a `var` has no temporal
 * dead zone to check), and offers no option against it. V8 folds a module's `const` into the
 * optimised code that reads it (a table size, a shingle length, a lookup table in a hot loop); a
 * `var` it must load each time. Measured on the analyzer over the 553 real texts: the same code ran
 * 5-13% slower bundled than as separate modules, and the bundle with its never-assigned `var`s made
 * `const` again ran as fast as the modules (docs/benchmarks.md, "The bundle's constants").
 *
 * A top-level `var` turns into `const` only when it has an initializer, is declared once at top
 * level, and no assignment to that name stands anywhere in the file (in any scope: a shadowing
 * local that is assigned keeps the top-level one a `var`, which is merely cautious). The source
 * map's columns after each `const` move by the two chars it adds.
 */
import ts from 'typescript';

export interface ConstBindings {
  code: string;
  /** The source map with the generated columns moved; null when none was given. */
  map: string | null;
  /** Top-level `var` statements turned into `const`, and those kept. */
  converted: number;
  kept: number;
}

const ASSIGNMENTS = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.AsteriskAsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken,
  ts.SyntaxKind.PercentEqualsToken,
  ts.SyntaxKind.LessThanLessThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanGreaterThanEqualsToken,
  ts.SyntaxKind.AmpersandEqualsToken,
  ts.SyntaxKind.BarEqualsToken,
  ts.SyntaxKind.CaretEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
]);

/** The names a target of an assignment writes: an identifier, or those inside a destructuring pattern. */
function targetNames(node: ts.Node, out: Set<string>): void {
  if (ts.isIdentifier(node)) out.add(node.text);
  else if (ts.isParenthesizedExpression(node)) targetNames(node.expression, out);
  else if (ts.isArrayLiteralExpression(node)) for (const e of node.elements) targetNames(e, out);
  else if (ts.isObjectLiteralExpression(node))
    for (const p of node.properties) {
      if (ts.isShorthandPropertyAssignment(p)) out.add(p.name.text);
      else if (ts.isPropertyAssignment(p)) targetNames(p.initializer, out);
      else if (ts.isSpreadAssignment(p)) targetNames(p.expression, out);
    }
  else if (ts.isSpreadElement(node)) targetNames(node.expression, out);
  else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) targetNames(node.left, out);
}

/** Every name written anywhere in the file after its declaration: assigned, incremented, or the loop variable of a for-in/of without a declaration. */
function writtenNames(file: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) targetNames(node.left, out);
    else if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
    )
      targetNames(node.operand, out);
    else if ((ts.isForInStatement(node) || ts.isForOfStatement(node)) && !ts.isVariableDeclarationList(node.initializer))
      targetNames(node.initializer, out);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** `code` (an ES module bundle) with its never-assigned top-level `var`s declared `const`; `map` (its source map, JSON) moved to match. */
export function constBindings(code: string, map: string | null = null): ConstBindings {
  const file = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const written = writtenNames(file);
  const declared = new Map<string, number>();
  const vars: ts.VariableStatement[] = [];
  for (const st of file.statements) {
    if (!ts.isVariableStatement(st) || (st.declarationList.flags & ts.NodeFlags.BlockScoped) !== 0) continue;
    vars.push(st);
    for (const d of st.declarationList.declarations)
      if (ts.isIdentifier(d.name)) declared.set(d.name.text, (declared.get(d.name.text) ?? 0) + 1);
  }
  const at: number[] = [];
  let kept = 0;
  for (const st of vars) {
    const ok = st.declarationList.declarations.every(
      (d) => ts.isIdentifier(d.name) && d.initializer !== undefined && declared.get(d.name.text) === 1 && !written.has(d.name.text),
    );
    if (ok) at.push(st.declarationList.getStart(file));
    else kept++;
  }
  let out = '';
  let from = 0;
  for (const p of at) {
    out += `${code.slice(from, p)}const`;
    from = p + 3;
  }
  out += code.slice(from);
  return { code: out, map: map === null ? null : movedMap(map, code, at), converted: at.length, kept };
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = new Map([...B64].map((c, i) => [c, i]));

/** The numbers of one VLQ-encoded source-map segment. */
function decodeSegment(seg: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of seg) {
    const digit = B64_VALUE.get(c);
    if (digit === undefined) throw new Error(`source map: '${c}' is no base64 VLQ digit in segment '${seg}'`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -Math.floor(value / 2) : Math.floor(value / 2));
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function encodeSegment(values: readonly number[]): string {
  let out = '';
  for (const v of values) {
    let rest = v < 0 ? -v * 2 + 1 : v * 2;
    do {
      let digit = rest % 32;
      rest = Math.floor(rest / 32);
      if (rest > 0) digit |= 32;
      out += B64[digit];
    } while (rest > 0);
  }
  return out;
}

/** `map` with the generated columns after each of `at` (offsets of a `var` in `code`, now `const`) moved by two. */
function movedMap(map: string, code: string, at: readonly number[]): string {
  const parsed = JSON.parse(map) as { mappings?: unknown };
  if (typeof parsed.mappings !== 'string') throw new Error('source map: no mappings string');
  // the line and column of each converted `var`
  const byLine = new Map<number, number[]>();
  let line = 0;
  let lineStart = 0;
  for (const p of at) {
    for (let next = code.indexOf('\n', lineStart); next >= 0 && next < p; next = code.indexOf('\n', lineStart)) {
      line++;
      lineStart = next + 1;
    }
    byLine.set(line, [...(byLine.get(line) ?? []), p - lineStart]);
  }
  const lines = parsed.mappings.split(';');
  for (const [l, cols] of byLine) {
    const segs = lines[l];
    if (segs === undefined || segs === '') continue;
    let column = 0;
    let movedPrev = 0;
    lines[l] = segs
      .split(',')
      .map((seg) => {
        const values = decodeSegment(seg);
        column += values[0]!;
        // a segment past a keyword that grew moves by two per such keyword before it
        const moved = column + 2 * cols.filter((c) => column > c).length;
        values[0] = moved - movedPrev;
        movedPrev = moved;
        return encodeSegment(values);
      })
      .join(',');
  }
  return JSON.stringify({ ...parsed, mappings: lines.join(';') });
}
