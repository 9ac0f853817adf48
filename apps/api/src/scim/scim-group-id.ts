/**
 * A Group's SCIM id: `g` then the role's id ("g7"). RFC 7643 §3.1 wants an id unique across every
 * resource of the service provider, and a User's id is the user's plain number ("7"), which
 * identity providers already store; so the groups carry the prefix (docs/decisions.md).
 */
export const GROUP_ID_PATTERN = '^g(0|[1-9]\\d{0,9})$';
const GROUP_ID = new RegExp(GROUP_ID_PATTERN);

export const groupScimId = (roleId: number): string => `g${roleId}`;

/** The role a Group id names; null for anything else (a user's plain number, `G7`, `g07`). */
export function roleIdOfGroup(id: string): number | null {
  const match = GROUP_ID.exec(id);
  return match ? Number(match[1]) : null;
}

/** Where a Group is read: its `meta.location`, and the `$ref` a user's `groups` point at. */
export const groupLocation = (baseUrl: string, roleId: number): string => `${baseUrl}/Groups/${groupScimId(roleId)}`;
