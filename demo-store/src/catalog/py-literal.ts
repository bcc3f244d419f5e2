/*
 * Reader for the Python-literal strings in the Flipkart export: the category tree is a list of strings
 * ("['footwear', 'womens footwear', ...]") and the specifications are a list of dicts
 * ("[{'key': 'Ideal For', 'value': \"Men's\"}, {'value': 'Hand wash'}]").
 * Only lists, dicts, strings, numbers, True/False/None are understood; anything else returns null,
 * because a half-parsed value would silently lose data.
 */

export type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue };

export function parsePyLiteral(text: string): PyValue | null {
  const p = new Parser(text);
  try {
    const v = p.value();
    p.ws();
    return p.atEnd() ? v : null;
  } catch {
    return null;
  }
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0" };

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  atEnd(): boolean {
    return this.i >= this.s.length;
  }

  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  value(): PyValue {
    this.ws();
    const c = this.s[this.i];
    if (c === "[") return this.seq("]");
    if (c === "(") return this.seq(")");
    if (c === "{") return this.dict();
    if (c === "'" || c === '"') return this.str();
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|True|False|None)/.exec(this.s.slice(this.i, this.i + 40));
    if (!m) throw new Error(`unexpected input at ${this.i}`);
    this.i += m[0].length;
    if (m[0] === "True") return true;
    if (m[0] === "False") return false;
    if (m[0] === "None") return null;
    return Number(m[0]);
  }

  private seq(close: string): PyValue[] {
    this.i++;
    const out: PyValue[] = [];
    for (;;) {
      this.ws();
      if (this.s[this.i] === close) {
        this.i++;
        return out;
      }
      out.push(this.value());
      this.ws();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== close) throw new Error(`expected , or ${close}`);
    }
  }

  private dict(): { [key: string]: PyValue } {
    this.i++;
    // Null prototype: keys come from data and must not reach Object.prototype.
    const out: { [key: string]: PyValue } = Object.create(null);
    for (;;) {
      this.ws();
      if (this.s[this.i] === "}") {
        this.i++;
        return out;
      }
      const key = this.value();
      this.ws();
      if (this.s[this.i] !== ":") throw new Error("expected :");
      this.i++;
      out[String(key)] = this.value();
      this.ws();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== "}") throw new Error("expected , or }");
    }
  }

  private str(): string {
    const quote = this.s[this.i]!;
    this.i++;
    let out = "";
    for (;;) {
      if (this.i >= this.s.length) throw new Error("unterminated string");
      const c = this.s[this.i]!;
      if (c === quote) {
        this.i++;
        return out;
      }
      if (c === "\\") {
        const e = this.s[this.i + 1] ?? "";
        out += ESCAPES[e] ?? "\\" + e;
        this.i += 2;
        continue;
      }
      out += c;
      this.i++;
    }
  }
}
