import { expect, test } from "bun:test";
import { countTopLevelItems } from "../src/json-text.ts";

test("a JSON array's items are counted at its top level only, and no further than asked", () => {
  expect(countTopLevelItems("[]", 10)).toBe(0);
  expect(countTopLevelItems("  [ ]", 10)).toBe(0);
  expect(countTopLevelItems("[1]", 10)).toBe(1);
  expect(countTopLevelItems('[{"a":[1,2]},"x,y",3]', 10)).toBe(3);
  expect(countTopLevelItems('["a\\",b", 2]', 10)).toBe(2);
  expect(countTopLevelItems("[[1,2],[3]]", 10)).toBe(2);
  expect(countTopLevelItems("[1,2,3,4,5]", 3)).toBe(3);
  expect(countTopLevelItems('{"synonyms": [1, 2]}', 10)).toBeNull();
});
