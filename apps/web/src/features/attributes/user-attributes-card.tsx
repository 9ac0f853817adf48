import type { AttributeField, AttributeValue, UserAttributes } from '@app/contracts';
import { Card, CardDescription, CardHeader, CardTitle, cn, DescriptionList } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import { useTRPC } from '../../lib/trpc';
import { TextLink } from '../../components/text-link';
import { useCan } from '../auth/use-session';

type Definition = Pick<AttributeField, 'key' | 'label' | 'type'>;

/**
 * The definitions that name the values on a user page, from the cheapest door the viewer has: the
 * attributes' list (attributes.manage), the create form's data (users.create), else the users
 * list's answer (users.view, which carries the definitions the caller may see). Null when none
 * answered (keys are shown); undefined while they load.
 */
function useDefinitions(wanted: boolean): readonly Definition[] | null | undefined {
  const trpc = useTRPC();
  const can = useCan();
  const manage = wanted && can['attributes.manage'] === true;
  const creator = wanted && !manage && can['users.create'] === true;
  const viewer = wanted && !manage && !creator && can['users.view'] === true;
  const list = useQuery({ ...trpc.attributes.list.queryOptions(), enabled: manage, retry: false });
  const form = useQuery({ ...trpc.users.new.queryOptions(), enabled: creator, retry: false });
  const users = useQuery({ ...trpc.users.list.queryOptions({ perPage: 10 }), enabled: viewer, retry: false });
  if ((manage && list.isPending) || (creator && form.isPending) || (viewer && users.isPending)) return undefined;
  return list.data?.rows ?? form.data?.options.attributes ?? users.data?.attributes ?? null;
}

/** A user reference as a link to that user, by name once looked up. */
function UserLink({ id }: { id: number }) {
  const m = useAttributesMessages();
  const trpc = useTRPC();
  const user = useQuery({ ...trpc.users.show.queryOptions({ id }), retry: false });
  return <TextLink to={`/users/${id}`}>{user.data?.item.name ?? m.attributeFields.userId(id)}</TextLink>;
}

function ValueOf({ type, value }: { type: Definition['type'] | undefined; value: AttributeValue }) {
  const m = useAttributesMessages();
  if (type === 'user' && typeof value === 'number') return <UserLink id={value} />;
  if (typeof value === 'boolean') return <>{value ? m.attributeFields.yes : m.attributeFields.no}</>;
  if (type === 'email') {
    return (
      <a href={`mailto:${value}`} className="hover:underline">
        {value}
      </a>
    );
  }
  if (type === 'url') {
    return (
      <a href={String(value)} rel="noopener noreferrer" target="_blank" className="break-all hover:underline">
        {value}
      </a>
    );
  }
  return <>{String(value)}</>;
}

/** The user's custom attribute values (those the viewer may see), by the definitions' labels and order. */
export function UserAttributesCard({ values, className }: { values: UserAttributes | undefined; className?: string }) {
  const m = useAttributesMessages();
  const t = m.attributeFields;
  const held = values ?? {};
  const keys = Object.keys(held);
  // No value, no card: the labels are asked for only when there is something to name.
  const definitions = useDefinitions(keys.length > 0);
  if (keys.length === 0 || definitions === undefined) return null;
  const known = (definitions ?? []).filter((d) => d.key in held);
  const unknown = keys.filter((key) => !known.some((d) => d.key === key));
  const items = [
    ...known.map((d) => ({ id: d.key, term: d.label, type: d.type })),
    ...unknown.map((key) => ({ id: key, term: key, type: undefined })),
  ];

  return (
    <Card aria-labelledby="user-attributes-title" className={cn('overflow-hidden', className)}>
      <CardHeader className="pb-3">
        <div>
          <CardTitle id="user-attributes-title">{t.cardTitle}</CardTitle>
          {definitions === null && keys.length > 0 ? <CardDescription>{t.cardKeysOnly}</CardDescription> : null}
        </div>
      </CardHeader>
      <DescriptionList
        className="border-t border-border"
        items={items.map((item) => ({
          id: item.id,
          term: item.term,
          description: <ValueOf type={item.type} value={held[item.id] as AttributeValue} />,
        }))}
      />
    </Card>
  );
}
