import type { Migration } from './migration.js';

/**
 * The seeded roles get a sentence saying what they are for (issue 40: their pages said "No
 * description."). A new installation's seed writes it; this fills it in on an existing one, only
 * where the role has none yet: an administrator's own words stay. The role's version moves on, so
 * an editor opened before the upgrade meets the new text as a change (409) instead of erasing it.
 *
 * Frozen: the words as they were when this migration was written (the contracts'
 * SEEDED_ROLE_DESCRIPTIONS may be reworded later; a migration must do the same thing whenever it
 * runs). The roles are found by their name key (migration 0028), whatever their name's case.
 */
const DESCRIPTIONS: ReadonlyArray<readonly [key: string, description: string]> = [
  ['admin', 'Every permission, including those added in later versions. This role cannot be renamed or deleted.'],
  [
    'manager',
    'Looks after user accounts: sees and edits users, activates and deactivates them, exports the list; sees roles.',
  ],
  ['viewer', 'Reads only: sees users and roles, and changes nothing.'],
];

export const seededRoleDescriptions: Migration = {
  name: '0033-seeded-role-descriptions',
  async up({ qi }) {
    for (const [key, description] of DESCRIPTIONS) {
      await qi.sequelize.query(
        `UPDATE roles SET description = :description, lock_version = lock_version + 1
          WHERE name_key = :key AND (description IS NULL OR TRIM(description) = '')`,
        { replacements: { key, description } },
      );
    }
  },
  async down({ qi }) {
    // Only the words this migration writes: a description an administrator wrote stays.
    for (const [key, description] of DESCRIPTIONS) {
      await qi.sequelize.query(
        'UPDATE roles SET description = NULL WHERE name_key = :key AND description = :description',
        {
          replacements: { key, description },
        },
      );
    }
  },
};
