import { describe, expect, it } from 'vitest';
import { groupScimId, roleIdOfGroup } from '../../src/scim/scim-group-id.js';

describe("a Group's SCIM id", () => {
  it('is g and the role id, and reads back to the role id', () => {
    expect(groupScimId(7)).toBe('g7');
    expect(roleIdOfGroup(groupScimId(7))).toBe(7);
    expect(roleIdOfGroup('g1234567890')).toBe(1_234_567_890);
  });

  it("names no role when it is a user's plain number or another spelling", () => {
    for (const id of ['7', 'G7', 'g07', 'g', 'g-1', 'g1.5', ' g7', 'g7 ', 'g12345678901', 'abc', '']) {
      expect(roleIdOfGroup(id), id).toBeNull();
    }
  });
});
