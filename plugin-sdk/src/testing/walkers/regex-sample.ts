/**
 * Produces a string matching a JSON-schema `pattern` (ECMAScript regex, `u` flag) for the walkers'
 * sample generator. It understands what schema patterns use — literals, escapes, classes, groups,
 * alternation, quantifiers, anchors — and treats lookarounds and word boundaries as empty. `stretch`
 * repeats every quantifier that many more times (within its maximum), to reach a `minLength`.
 */

type Node =
  | { kind: 'char'; value: string }
  | { kind: 'class'; pick: string | null }
  | { kind: 'group'; branches: Node[][] }
  | { kind: 'empty' }
  | { kind: 'repeat'; node: Node; min: number; max: number };

const CLASS_ESCAPES: Record<string, string> = { d: '0', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' };
const CANDIDATES = ['a', 'b', 'x', 'A', 'Z', '0', '1', '9', '_', '-', '.', ' ', '@', '/', '+', ':', '#', '!'];

/** Thrown for a pattern the sampler can't read. */
export class RegexSampleError extends Error {
  override name = 'RegexSampleError';
}

class Parser {
  private pos = 0;

  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.pos < this.source.length) throw new RegexSampleError(`unexpected '${this.source[this.pos]}' in /${this.source}/`);
    return node;
  }

  private peek(): string | undefined {
    return this.source[this.pos];
  }

  private next(): string {
    const char = this.source[this.pos];
    if (char === undefined) throw new RegexSampleError(`unexpected end of /${this.source}/`);
    this.pos++;
    return char;
  }

  private alternation(): Node {
    const branches: Node[][] = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.sequence());
    }
    return { kind: 'group', branches };
  }

  private sequence(): Node[] {
    const nodes: Node[] = [];
    while (this.pos < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      nodes.push(this.quantified(atom));
    }
    return nodes;
  }

  private quantified(node: Node): Node {
    const char = this.peek();
    let min: number;
    let max: number;
    if (char === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (char === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (char === '?') [min, max] = [0, 1];
    else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos));
      if (!match) return node; // a literal brace
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] ? Number(match[3]) : Number.POSITIVE_INFINITY;
      this.pos += match[0].length - 1;
    } else return node;
    this.pos++;
    if (this.peek() === '?') this.pos++; // lazy makes no difference to a sample
    return { kind: 'repeat', node, min, max };
  }

  private atom(): Node {
    const char = this.next();
    if (char === '^' || char === '$') return { kind: 'empty' };
    if (char === '.') return { kind: 'char', value: 'a' };
    if (char === '(') {
      let lookaround = false;
      if (this.source.startsWith('?:', this.pos)) this.pos += 2;
      else if (/^\?<?[=!]/.test(this.source.slice(this.pos))) {
        lookaround = true;
        this.pos += this.source[this.pos + 1] === '<' ? 3 : 2;
      } else if (this.source.startsWith('?<', this.pos)) this.pos = this.source.indexOf('>', this.pos) + 1;
      const inner = this.alternation();
      if (this.next() !== ')') throw new RegexSampleError(`unclosed group in /${this.source}/`);
      return lookaround ? { kind: 'empty' } : inner;
    }
    if (char === '[') return this.characterClass();
    if (char === '\\') return this.escape();
    return { kind: 'char', value: char };
  }

  private escape(): Node {
    const char = this.next();
    if (char === 'b' || char === 'B') return { kind: 'empty' };
    if (CLASS_ESCAPES[char] !== undefined) return { kind: 'char', value: CLASS_ESCAPES[char] };
    return { kind: 'char', value: this.escapedChar(char) };
  }

  /** The character an escape inside or outside a class stands for. */
  private escapedChar(char: string): string {
    if (char === 'n') return '\n';
    if (char === 't') return '\t';
    if (char === 'r') return '\r';
    if (char === 'x') {
      const hex = this.source.slice(this.pos, this.pos + 2);
      this.pos += 2;
      return String.fromCharCode(Number.parseInt(hex, 16));
    }
    if (char === 'u') {
      if (this.peek() === '{') {
        const end = this.source.indexOf('}', this.pos);
        const code = Number.parseInt(this.source.slice(this.pos + 1, end), 16);
        this.pos = end + 1;
        return String.fromCodePoint(code);
      }
      const hex = this.source.slice(this.pos, this.pos + 4);
      this.pos += 4;
      return String.fromCharCode(Number.parseInt(hex, 16));
    }
    if (char === 'p' || char === 'P') {
      // \p{L} and friends: a letter satisfies the common ones
      if (this.peek() === '{') this.pos = this.source.indexOf('}', this.pos) + 1;
      return char === 'p' ? 'a' : '0';
    }
    return char;
  }

  private characterClass(): Node {
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const members: Array<{ test: (c: string) => boolean; prefer?: string }> = [];
    let first = true;
    while (first || this.peek() !== ']') {
      first = false;
      const low = this.next();
      if (low === '\\') {
        const escaped = this.next();
        const classTest = this.classEscape(escaped);
        if (classTest) {
          members.push({ test: classTest });
          continue;
        }
        members.push(this.rangeOrLiteral(this.escapedChar(escaped)));
        continue;
      }
      members.push(this.rangeOrLiteral(low));
    }
    this.pos++; // ]
    const matches = (c: string) => members.some((member) => member.test(c));
    if (negated) return { kind: 'class', pick: CANDIDATES.find((c) => !matches(c)) ?? null };
    const pick = CANDIDATES.find(matches) ?? members.find((member) => member.prefer !== undefined)?.prefer ?? null;
    return { kind: 'class', pick };
  }

  /** `\d`, `\w`, `\s`, `\p{…}` and their negations inside a class, or null for an escaped character. */
  private classEscape(escaped: string): ((c: string) => boolean) | null {
    if (escaped === 'd') return (c) => /\d/.test(c);
    if (escaped === 'w') return (c) => /\w/.test(c);
    if (escaped === 's') return (c) => /\s/.test(c);
    if (escaped === 'D') return (c) => !/\d/.test(c);
    if (escaped === 'W') return (c) => !/\w/.test(c);
    if (escaped === 'S') return (c) => !/\s/.test(c);
    if (escaped === 'p' || escaped === 'P') {
      if (this.peek() === '{') this.pos = this.source.indexOf('}', this.pos) + 1;
      return escaped === 'p' ? (c) => /\p{L}/u.test(c) : (c) => !/\p{L}/u.test(c);
    }
    return null;
  }

  /** A class member: `low` alone, or the range `low-high` when a dash follows. */
  private rangeOrLiteral(low: string): { test: (c: string) => boolean; prefer: string } {
    if (this.peek() !== '-' || this.source[this.pos + 1] === ']') return { test: (c) => c === low, prefer: low };
    this.pos++;
    let high = this.next();
    if (high === '\\') high = this.escapedChar(this.next());
    const from = low.codePointAt(0) ?? 0;
    const to = high.codePointAt(0) ?? 0;
    return { test: (c) => (c.codePointAt(0) ?? -1) >= from && (c.codePointAt(0) ?? -1) <= to, prefer: low };
  }
}

function generate(node: Node, stretch: number): string {
  switch (node.kind) {
    case 'char':
      return node.value;
    case 'empty':
      return '';
    case 'class':
      if (node.pick === null) throw new RegexSampleError('a character class no sample character satisfies');
      return node.pick;
    case 'group': {
      let failure: unknown = null;
      for (const branch of node.branches) {
        try {
          return branch.map((child) => generate(child, stretch)).join('');
        } catch (error) {
          failure = error;
        }
      }
      throw failure;
    }
    case 'repeat': {
      const count = Math.min(node.max, node.min + stretch);
      return Array.from({ length: count }, () => generate(node.node, stretch)).join('');
    }
  }
}

/** A string matching `pattern`, as long as its quantifiers allow with `stretch` extra repetitions each. */
export function sampleFromPattern(pattern: string, stretch = 0): string {
  return generate(new Parser(pattern).parse(), stretch);
}
