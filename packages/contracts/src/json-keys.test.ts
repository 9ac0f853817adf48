import { describe, expect, it } from 'vitest';
import { REFUSED_JSON_KEYS, refusedJsonKeyMessage, refusedJsonKeyPath } from './json-keys';

describe('keys refused in JSON input', () => {
  it.each([
    ['{"__proto__":{"isAdmin":true}}', '__proto__'],
    ['{"a":[1,{"b":{"constructor":1}}]}', 'a.1.b.constructor'],
    ['[{"prototype":null}]', '0.prototype'],
  ])('finds one wherever it is: %s', (text, path) => {
    expect(refusedJsonKeyPath(JSON.parse(text))).toBe(path);
  });

  it('leaves the same words alone as values and list items', () => {
    expect(refusedJsonKeyPath(JSON.parse('{"name":"constructor","tags":["__proto__","prototype"]}'))).toBeNull();
    expect(refusedJsonKeyPath('constructor')).toBeNull();
    expect(refusedJsonKeyPath(null)).toBeNull();
  });

  it('walks a value nested deeper than the call stack', () => {
    const depth = 200_000;
    const text = `${'{"a":'.repeat(depth)}{"prototype":1}${'}'.repeat(depth)}`;
    expect(refusedJsonKeyPath(JSON.parse(text))?.endsWith('a.a.prototype')).toBe(true);
  });

  it('names the key, where it is, and every refused key', () => {
    const message = refusedJsonKeyMessage('The request body', 'a.1.constructor');
    expect(message).toContain('`constructor` key (at a.1.constructor)');
    for (const key of REFUSED_JSON_KEYS) expect(message).toContain(`\`${key}\``);
  });
});
