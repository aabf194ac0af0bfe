import { describe, expect, it } from 'vitest';
import { partialStringField } from './partial-json-field.ts';

const prefixes = (text: string) => Array.from({ length: text.length + 1 }, (_, end) => text.slice(0, end));

describe('partialStringField', () => {
  it('grows with the text of the field as the JSON is written, and equals the parsed value at the end', () => {
    const json = JSON.stringify({
      answer: 'The fee is "$48,000" [1].\nSee § 4 — ok 😀',
      answerable: true,
      citations: [{ quote: 'x' }],
    });
    let previous = '';
    for (const prefix of prefixes(json)) {
      const value = partialStringField(prefix, 'answer') ?? '';
      expect(value.startsWith(previous)).toBe(true);
      previous = value;
    }
    expect(previous).toBe((JSON.parse(json) as { answer: string }).answer);
  });

  it("finds the field after others, and ignores the same name nested or as another field's value", () => {
    const json =
      '{"answerable": true, "citations": [{"answer": "nested", "quote": "answer"}], "note": "answer", "answer": "top level"}';
    expect(partialStringField(json, 'answer')).toBe('top level');
    expect(partialStringField(json.slice(0, json.indexOf('top level')), 'answer')).toBe('');
    expect(partialStringField(json.slice(0, json.lastIndexOf('"answer"')), 'answer')).toBeUndefined();
  });

  it('tolerates prose or a code fence before the object, and yields nothing for text that is no JSON object', () => {
    expect(partialStringField('```json\n{"answer": "fenced', 'answer')).toBe('fenced');
    expect(partialStringField('Thought: I should search', 'answer')).toBeUndefined();
    expect(partialStringField('{"answer": 42}', 'answer')).toBeUndefined();
    expect(partialStringField('{"other": "x"}', 'answer')).toBeUndefined();
  });

  it('holds back an escape or a surrogate pair until it is complete', () => {
    expect(partialStringField('{"answer": "a\\', 'answer')).toBe('a');
    expect(partialStringField('{"answer": "a\\u00', 'answer')).toBe('a');
    expect(partialStringField('{"answer": "a\\u00e9', 'answer')).toBe('aé');
    expect(partialStringField('{"answer": "a\\ud83d', 'answer')).toBe('a');
    expect(partialStringField('{"answer": "a\\ud83d\\ude00', 'answer')).toBe('a😀');
  });
});
