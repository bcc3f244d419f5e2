import { describe, expect, test } from "bun:test";
import { CsvError, parseCsv, parseCsvTable } from "../../src/catalog/csv.ts";
import { parsePyLiteral } from "../../src/catalog/py-literal.ts";

describe("parseCsv", () => {
  test("plain fields and records", () => {
    expect(parseCsv("a,b,c\n1,2,3\n")).toEqual([
      ["a", "b", "c"],
      ["1", "2", "3"],
    ]);
  });

  test("CRLF, bare CR and a missing final newline", () => {
    expect(parseCsv("a,b\r\n1,2\r3,4")).toEqual([
      ["a", "b"],
      ["1", "2"],
      ["3", "4"],
    ]);
  });

  test("quoted fields with commas, doubled quotes and embedded newlines", () => {
    const text = 'id,desc\n1,"has a, comma"\n2,"say ""hi"""\n3,"line one\nline two\r\nline three"\n';
    expect(parseCsv(text)).toEqual([
      ["id", "desc"],
      ["1", "has a, comma"],
      ["2", 'say "hi"'],
      ["3", "line one\nline two\r\nline three"],
    ]);
  });

  test("empty fields, empty quoted fields and trailing empty field", () => {
    expect(parseCsv('a,,"",b,\n')).toEqual([["a", "", "", "b", ""]]);
    expect(parseCsv(",\n")).toEqual([["", ""]]);
  });

  test("blank lines are not records", () => {
    expect(parseCsv("a\n\n\nb\n\n")).toEqual([["a"], ["b"]]);
  });

  test("byte-order mark is dropped", () => {
    expect(parseCsv("\ufeffid,name\n1,x")).toEqual([
      ["id", "name"],
      ["1", "x"],
    ]);
  });

  test("lenient with quotes inside unquoted fields and text after a closing quote", () => {
    expect(parseCsv('5" heel,"ab"c\n')).toEqual([['5" heel', "abc"]]);
  });

  test("leading spaces before a quote keep the field unquoted (as in the Myntra file)", () => {
    expect(parseCsv("a, Black\n")).toEqual([["a", " Black"]]);
  });

  test("an unterminated quoted field is an error with its line", () => {
    expect(() => parseCsv('a,b\n1,"open\nstill open')).toThrow(CsvError);
    try {
      parseCsv('a,b\n1,"open\nstill open');
    } catch (e) {
      expect((e as CsvError).line).toBe(2);
    }
  });

  test("header table pads short rows and counts ragged ones", () => {
    const t = parseCsvTable("id, name ,price\n1,shirt,10\n2,cap\n");
    expect(t.header).toEqual(["id", "name", "price"]);
    expect(t.rows).toEqual([
      { id: "1", name: "shirt", price: "10" },
      { id: "2", name: "cap", price: "" },
    ]);
    expect(t.raggedRows).toBe(1);
  });
});

describe("parsePyLiteral", () => {
  test("Flipkart category tree", () => {
    expect(parsePyLiteral("['footwear', 'womens footwear', 'ballerinas']")).toEqual(["footwear", "womens footwear", "ballerinas"]);
  });

  test("specifications with mixed quotes and key-less entries", () => {
    const v = parsePyLiteral(`[{'key': 'Ideal For', 'value': "Men's"}, {'value': 'Hand wash'}]`);
    expect(v).toEqual([{ key: "Ideal For", value: "Men's" }, { value: "Hand wash" }]);
  });

  test("escapes, numbers and constants", () => {
    expect(parsePyLiteral(`['a\\'b', 1.5, -2, True, None]`)).toEqual(["a'b", 1.5, -2, true, null]);
  });

  test("malformed input gives null, never a partial value", () => {
    expect(parsePyLiteral("['unterminated")).toBeNull();
    expect(parsePyLiteral("['a'] trailing")).toBeNull();
    expect(parsePyLiteral("{'a' 1}")).toBeNull();
    expect(parsePyLiteral("")).toBeNull();
  });

  test("dict keys cannot reach Object.prototype", () => {
    const v = parsePyLiteral("{'__proto__': 'x'}") as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBeNull();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
