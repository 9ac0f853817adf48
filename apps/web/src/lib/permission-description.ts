import { PERMISSION_CATALOGUE } from '@app/contracts';

const CATALOGUE: Readonly<Record<string, { description: string } | undefined>> = PERMISSION_CATALOGUE;

/** The contracts' one-line description of a permission (the sentence GET /permissions serves); none for a name it does not know. */
export const permissionDescription = (name: string): string | undefined => CATALOGUE[name]?.description;
